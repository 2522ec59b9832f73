import { AppError } from "@/lib/server/app-error";
import { defineRoute } from "@/lib/server/http/route";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { serverConfig } from "@/lib/server/config";
import { fetchSandboxDemo } from "@/lib/server/hub/client";
import { signedInAnswer } from "@/app/api/session/schema";
import { currentApplication } from "@/lib/server/session/session";

/** Sandbox mode only: sign in with the sandbox's demo key, fetched server-side (the browser never sees it). */
export const POST = defineRoute({
  rateLimit: signInLimiter,
  async handle({ session, signal }) {
    if (!serverConfig().sandboxMode) {
      throw new AppError(
        "not_found",
        "The demo sign-in exists only when the console runs on the local sandbox (npm start without HUB_BASE_URL). Sign in with your API key.",
      );
    }
    const { apiKey } = await fetchSandboxDemo(signal);
    return Response.json(signedInAnswer(currentApplication(await session.signIn(apiKey))));
  },
});
