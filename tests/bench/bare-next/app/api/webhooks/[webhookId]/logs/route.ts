/**
 * `GET /api/webhooks/{id}/logs?...` passed through to the hub with the caller's `x-api-key`: no
 * session, no checks, no parsing. What a Next route handler costs when it does nothing else.
 */
const upstream = process.env.BARE_NEXT_UPSTREAM ?? "";

export async function GET(request: Request, { params }: { params: Promise<{ webhookId: string }> }) {
  const { webhookId } = await params;
  const answer = await fetch(
    `${upstream}/v1/organization/webhook/${webhookId}/webhook-log${new URL(request.url).search}`,
    { headers: { "x-api-key": request.headers.get("x-api-key") ?? "", accept: "application/json" } },
  );
  return new Response(answer.body, {
    status: answer.status,
    headers: { "content-type": answer.headers.get("content-type") ?? "application/json" },
  });
}
