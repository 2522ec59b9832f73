import { fireEvent, render, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { FIRST_RENDER, VIEWER, formatTimestamp } from "@/lib/domain/format-time";
import { formatBucketLabel, formatBucketRange } from "@/lib/domain/health-text";
import { BucketTime, BucketTitle } from "@/components/health/bucket-time";
import { HealthLinks } from "@/components/health/health-links";
import { Moment } from "@/components/ui/moment";

const push = vi.fn();
const FAILED_500 = "/webhooks/wh-1?status=Failed&code=500";

vi.mock("next/navigation", () => ({ useRouter: () => ({ push }) }));

describe("HealthLinks (the region's plain links, followed in the page)", () => {
  beforeEach(() => push.mockClear());

  function renderLinks() {
    render(
      <HealthLinks>
        <a href={FAILED_500}>HTTP 500</a>
        <a href="https://example.com/elsewhere">Elsewhere</a>
      </HealthLinks>,
    );
  }

  it("a click shows the link's view in the page without scrolling it", () => {
    renderLinks();
    const followed = fireEvent.click(screen.getByRole("link", { name: "HTTP 500" }));
    expect(followed).toBe(false);
    expect(push).toHaveBeenCalledWith(FAILED_500, { scroll: false });
  });

  it("leaves a click for a new tab, and a link to another site, to the browser", () => {
    renderLinks();
    expect(fireEvent.click(screen.getByRole("link", { name: "HTTP 500" }), { ctrlKey: true })).toBe(true);
    expect(fireEvent.click(screen.getByRole("link", { name: "Elsewhere" }))).toBe(true);
    expect(push).not.toHaveBeenCalled();
  });
});

describe("HealthLinks: the region's times in the viewer's zone", () => {
  const HOUR = 3_600_000;
  const START = "2025-11-20T20:00:00.000Z";
  const LAST = "2025-11-20T20:07:09.000Z";

  it("writes the server's UTC times (a Moment, a bar's title, an axis label, a row's range) in the viewer's form once mounted", () => {
    const utc = formatBucketRange(START, HOUR, FIRST_RENDER);
    const viewer = formatBucketRange(START, HOUR, VIEWER);
    expect(utc).not.toBe(viewer);
    const region = (
      <HealthLinks>
        <Moment iso={LAST} form="relative" now={0} />
        <svg>
          <a href={FAILED_500}>
            <BucketTitle start={START} bucketMs={HOUR} success={3} failed={1} />
          </a>
          <text>
            <BucketTime start={START} bucketMs={HOUR} form="label" />
          </text>
        </svg>
        <BucketTime start={START} bucketMs={HOUR} form="range" />
      </HealthLinks>
    );
    const html = renderToString(region);
    expect(html).toContain(`${utc}: 3 succeeded, 1 failed</title>`);
    expect(html).toContain(`>${formatBucketLabel(START, HOUR, FIRST_RENDER)}</tspan>`);

    const { container } = render(region);
    expect(screen.getByText(formatTimestamp(LAST, VIEWER))).toHaveAttribute("datetime", LAST);
    expect(container.querySelector("title")).toHaveTextContent(`${viewer}: 3 succeeded, 1 failed`);
    expect(container.querySelector("tspan")).toHaveTextContent(formatBucketLabel(START, HOUR, VIEWER));
    expect(screen.getByText(viewer)).toHaveAttribute("data-start", START);
  });
});
