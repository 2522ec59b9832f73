import { defineRoute } from "@/lib/server/http/route";
import { removeApplication } from "@/lib/server/session/applications";
import { sessionDataOf } from "@/lib/server/session/session";
import { applicationFormSchema, seeOther } from "@/app/api/applications/schema";

/** Removes an application from the session (a plain form `app=<id>`), back to the Applications page (303). */
export const POST = defineRoute({
  form: applicationFormSchema,
  async handle({ body, session }) {
    await session.save(removeApplication(sessionDataOf(await session.state()), body.app));
    return seeOther("/applications?done=removed");
  },
});
