import { defineRoute } from "@/lib/server/http/route";

import { listIssues } from "@/lib/server/watch/failure-issues";
import { withStore } from "@/lib/server/store/context";
import { issuesQuerySchema } from "@/lib/domain/inputs/failure-issue";
import { appIdsOf } from "@/app/api/watches/overview-answer";

/**
 * The failure issues of the watched webhooks of every application in the session (of one webhook
 * with `?webhookId=`), worst first, from the store alone. Another application's are never listed.
 */
export const GET = defineRoute({
  query: issuesQuerySchema,
  async handle({ query, session }) {
    const appIds = appIdsOf(await session.storeApps());
    const issues = await withStore((ctx) => listIssues(ctx, appIds, { webhookId: query.webhookId ?? null }));
    return Response.json({ issues });
  },
});
