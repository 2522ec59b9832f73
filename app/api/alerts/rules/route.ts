import { ruleSettingsSchema } from "@/lib/domain/inputs/alert-rules";
import { defineRoute } from "@/lib/server/http/route";
import { readAppRules, replaceAppRules } from "@/lib/server/alerts/rule-settings";

/** `{ rules }`: the rules every watched webhook of the page's application follows unless it sets its own. */
export const GET = defineRoute({
  async handle({ session }) {
    const app = await session.storeApp();
    return Response.json({ rules: await readAppRules(app.id) });
  },
});

/** Replaces the application's rules with `{ streak, rate, …, cooldownMinutes }`, every rule given whole. */
export const PUT = defineRoute({
  body: ruleSettingsSchema,
  async handle({ body, session }) {
    const app = await session.storeApp();
    return Response.json({ rules: await replaceAppRules(app.id, body) });
  },
});
