import { defineRoute } from "@/lib/server/http/route";

import { changeIssue } from "@/lib/server/watch/failure-issues";
import { withStore } from "@/lib/server/store/context";
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
    const issue = await withStore((ctx) =>
      changeIssue(ctx, appIds, params.issueId, {
        action: body.action,
        name: body.name,
        note: body.note || null,
      }),
    );
    return Response.json({ issue });
  },
});
