/** The labels of the history filters' fields, by the name each has in the URL and the scan route. */
export const FILTER_LABELS: Record<string, string> = {
  code: "HTTP status",
  since: "Since",
  until: "Until",
  contains: "Response contains",
  status: "Status",
};
