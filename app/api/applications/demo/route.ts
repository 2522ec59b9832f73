import { z } from "zod";
import { AppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import { fetchSandboxDemo } from "@/lib/server/hub/client";
import { defineRoute } from "@/lib/server/http/route";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { addApplication } from "@/lib/server/session/applications";
import { applicationId } from "@/lib/server/session/key-hash";
import { sessionDataOf } from "@/lib/server/session/session";
import { seeOther } from "@/app/api/applications/schema";

/**
 * Sandbox mode only (a plain form): adds the sandbox's other demo applications (Staging) that the
 * session does not hold yet, their keys fetched server-side like the demo sign-in's. Back to the
 * Applications page (303).
 */
export const POST = defineRoute({
  // A plain form with no field posts an empty form body.
  form: z.strictObject({}),
  rateLimit: signInLimiter,
  async handle({ session, signal }) {
    if (!serverConfig().sandboxMode) {
      throw new AppError(
        "not_found",
        "The sandbox's demo applications exist only when the console runs on the local sandbox.",
      );
    }
    let data = sessionDataOf(await session.state());
    const demo = await fetchSandboxDemo(signal);
    for (const app of demo.applications) {
      if (data.applications.some(({ id }) => id === applicationId(app.apiKey))) continue;
      data = addApplication(data, { name: app.name, apiKey: app.apiKey });
    }
    await session.save(data);
    return seeOther("/applications?done=added");
  },
});
