/**
 * What a webhook is called. The spec shows no name, but the real API may return one (`name`,
 * kept by the loose schema): when it does, a person knows the webhook by it.
 */
export function webhookName(webhook: { [field: string]: unknown }): string | null {
  const name = webhook.name;
  return typeof name === "string" && name.trim() !== "" ? name.trim() : null;
}

/** A tab's title for a webhook: its name, else its endpoint, so that many open tabs can be told apart. */
export function webhookTitle(webhook: { endpoint: string; [field: string]: unknown }): string {
  return webhookName(webhook) ?? webhook.endpoint;
}
