import { defineRoute } from "@/lib/server/http/route";
import { switchApplication } from "@/lib/server/session/applications";
import { sessionDataOf } from "@/lib/server/session/session";
import { applicationFormSchema, seeOther } from "@/app/api/applications/schema";

/** The header's switcher (a plain form `app=<id>`): makes it current and lands on its webhooks (303). */
export const POST = defineRoute({
  form: applicationFormSchema,
  async handle({ body, session }) {
    await session.save(switchApplication(sessionDataOf(await session.state()), body.app));
    return seeOther("/webhooks");
  },
});
