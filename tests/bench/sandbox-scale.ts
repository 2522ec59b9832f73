/**
 * Sandbox scale: list latency of a webhook with many logs ÷ one with few, straight to the
 * sandbox, taking turns request by request. First page, and a deep offset (the middle of each).
 */
import { alternatingLatency, type Target } from "./load";
import { ratioFigure, formatCount, formatMs, type Figure } from "./report";
import { median, ratio } from "./stats";

export interface ScaleInput {
  sandboxUrl: string;
  apiKey: string;
  small: { webhookId: string; count: number };
  large: { webhookId: string; count: number };
  firstPageSamples: number;
  deepSamples: number;
}

function target(input: ScaleInput, webhookId: string, query: string): Target {
  return {
    url: `${input.sandboxUrl}/v1/organization/webhook/${webhookId}/webhook-log?${query}`,
    headers: { "x-api-key": input.apiKey },
  };
}

export async function measureScale(input: ScaleInput): Promise<Figure[]> {
  const { small, large } = input;
  const sizes = `${formatCount(large.count)} ÷ ${formatCount(small.count)} logs`;

  const pair = async (smallQuery: string, largeQuery: string, samples: number) => {
    const [s, l] = await alternatingLatency(
      [target(input, small.webhookId, smallQuery), target(input, large.webhookId, largeQuery)],
      samples,
    );
    return { small: median(s as number[]), large: median(l as number[]) };
  };

  const first = await pair("limit=50", "limit=50", input.firstPageSamples);
  const failed = await pair("limit=50&status=Failed", "limit=50&status=Failed", input.firstPageSamples);
  const smallDeep = Math.floor(small.count / 2);
  const largeDeep = Math.floor(large.count / 2);
  const deep = await pair(`limit=50&offset=${smallDeep}`, `limit=50&offset=${largeDeep}`, input.deepSamples);

  return [
    ratioFigure(
      "sandbox scale, first page",
      ratio(first.large, first.small),
      { atMost: 3 },
      `${sizes}; p50 ${formatMs(first.large)} ÷ ${formatMs(first.small)}; status=Failed: ${formatMs(failed.large)} ÷ ${formatMs(failed.small)}`,
      {
        p50LargeMs: first.large,
        p50SmallMs: first.small,
        failedFilter: failed,
        largeCount: large.count,
        smallCount: small.count,
      },
    ),
    ratioFigure(
      "sandbox scale, deep offset",
      ratio(deep.large, deep.small),
      null,
      `offset ${formatCount(largeDeep)} ÷ offset ${formatCount(smallDeep)}; p50 ${formatMs(deep.large)} ÷ ${formatMs(deep.small)}`,
      { p50LargeMs: deep.large, p50SmallMs: deep.small, largeOffset: largeDeep, smallOffset: smallDeep },
    ),
  ];
}
