import { defineRoute } from "@/lib/server/http/route";
import { watchStore } from "@/lib/server/watch/store";
import { issueChangeSchema, issueParamsSchema } from "@/lib/domain/inputs/failure-issue";
import { appIdsOf } from "@/app/api/watches/overview-answer";

/**
 * A person's change of a failure issue `{ action, name, note }`: acknowledge (with a note),
 * resolve, ignore or reopen, under the name they typed. Answers the issue as it now is.
 */
export const POST = defineRoute({
  params: issueParamsSchema,
  body: issueChangeSchema,
  async handle({ params, body, session }) {
    const appIds = appIdsOf(await session.storeApps());
    const issue = await (
      await watchStore()
    ).changeIssue(appIds, params.issueId, {
      action: body.action,
      name: body.name,
      note: body.note || null,
    });
    return Response.json({ issue });
  },
});
