/** Why the Retry buttons (row and details) are disabled: the hub's API shows no retry path yet. */
export const RETRY_UNAVAILABLE_REASON = "The Messaging Hub API does not offer retry yet";
