/**
 * What deploy/ ships for Prometheus and Grafana: the alert rules pass `promtool check rules` and
 * their unit tests (`promtool test rules`); the dashboard is a Grafana dashboard on a datasource
 * variable; and every metric a rule or a panel queries is one a real scrape of /metrics shows.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { metricsRoute } from "@/lib/server/metrics/route";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { parseSamples } from "@/tests/support/metrics-text";
import { fillMetricsStore, SHOP } from "@/tests/support/metrics-store";
import { promtool } from "@/tests/support/promtool";
import { watchDatabases } from "@/tests/support/watch-databases";

const DEPLOY = path.resolve(__dirname, "../../../deploy");
const RULES = path.join(DEPLOY, "prometheus/hubconsole-alerts.yml");
const RULE_TESTS = path.join(DEPLOY, "prometheus/hubconsole-alerts.test.yml");
const DASHBOARD = path.join(DEPLOY, "grafana/hubconsole-dashboard.json");

const databases = watchDatabases();
/** The metric names a real scrape of a store holding a bit of everything shows. */
let scraped: Set<string>;

beforeAll(async () => {
  const ctx = await databases.fresh("sqlite");
  await fillMetricsStore(ctx);
  stubEnv({ METRICS_TOKEN: "deploy-test-token-0123456789" });
  const GET = metricsRoute({ store: async () => ctx, budgets: async () => [{ appId: SHOP, calls: 3 }] });
  const response = await GET(
    new Request("http://console.test/metrics", {
      headers: { authorization: "Bearer deploy-test-token-0123456789" },
    }),
  );
  scraped = new Set(parseSamples(await response.text()).map((sample) => sample.name));
  restoreEnv();
});

const KEYWORDS = new Set([
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "bool",
  "and",
  "or",
  "unless",
  "offset",
]);

/**
 * The metric names a PromQL expression selects: label matchers, ranges, strings and the label
 * lists of by/without/on/ignoring taken out, what is left that is no function, keyword or number.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, "")
    .replace(/\{[^}]*\}/g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, "");
  const names = [...bare.matchAll(/(?<![\w:.])[a-zA-Z_:][\w:]*/g)]
    .filter((match) => !/^\s*\(/.test(bare.slice(match.index + match[0].length)))
    .map((match) => match[0])
    .filter((word) => !KEYWORDS.has(word));
  return [...new Set(names)];
}

describe("metricNames", () => {
  it.each([
    ['sum by (code) (max by (webhook_id, code) (x_failures{window="24h", app=~"$a"}))', ["x_failures"]],
    ["count(max by (w) (x_failing) == 1) or vector(0)", ["x_failing"]],
    ["time() - max by (a) (x_start) > 600", ["x_start"]],
    ["rate(x_total[$__rate_interval]) / on (job) group_left (instance) up", ["x_total", "up"]],
    ["max_over_time(x_lag[1h] offset 5m) > bool 1e3", ["x_lag"]],
  ])("%s selects %j", (expr, names) => {
    expect(metricNames(expr)).toEqual(names);
  });
});

describe("deploy/prometheus: the alert rules", () => {
  it("pass promtool check rules", () => {
    const run = promtool(["check", "rules", RULES]);
    expect(run.output).toContain("SUCCESS: 3 rules found");
    expect(run.status).toBe(0);
  });

  it("pass their unit tests (promtool test rules): failing for 10 minutes (not in a maintenance window), the watcher behind, the outbox stuck", () => {
    const run = promtool(["test", "rules", RULE_TESTS]);
    expect(run.output).toContain("SUCCESS");
    expect(run.status).toBe(0);
  });

  it("query only metrics the console exposes", () => {
    const exprs = [...readFileSync(RULES, "utf8").matchAll(/^\s*expr:\s*(.+)$/gm)].map((m) => m[1]!);
    expect(exprs).toHaveLength(3);
    for (const expr of exprs) {
      const names = metricNames(expr);
      expect(names.length, expr).toBeGreaterThan(0);
      for (const name of names) expect(scraped, `${name} in ${expr}`).toContain(name);
    }
  });
});

interface Panel {
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: Array<{ expr: string; datasource: { uid: string } }>;
}

describe("deploy/grafana: the dashboard", () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, "utf8")) as {
    uid: string;
    title: string;
    schemaVersion: number;
    panels: Panel[];
    templating: { list: Array<{ type: string; name: string; query: unknown; definition?: string }> };
  };
  const queried = dashboard.panels.filter((panel) => panel.type !== "row");

  it("is a Grafana dashboard whose every query goes to the chosen Prometheus (a datasource variable)", () => {
    expect(dashboard).toMatchObject({ uid: "hubconsole-webhooks", title: "Messaging Hub Webhook Console" });
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.templating.list[0]).toMatchObject({
      type: "datasource",
      name: "datasource",
      query: "prometheus",
    });
    for (const panel of queried) {
      expect(panel.datasource, panel.title).toEqual({ type: "prometheus", uid: "${datasource}" });
      for (const target of panel.targets ?? [])
        expect(target.datasource.uid, panel.title).toBe("${datasource}");
    }
    const ids = dashboard.panels.map((panel) => (panel as { id?: number }).id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("shows failing webhooks, success ratio over time, streaks, watcher lag and the alert outbox", () => {
    const titles = queried.map((panel) => panel.title);
    for (const title of [
      "Failing webhooks",
      "Success ratio, last hour",
      "Failing streaks",
      "Watcher lag",
      "Alert outbox",
    ])
      expect(titles).toContain(title);
  });

  it("queries only metrics the console exposes, in every panel and variable", () => {
    for (const panel of queried) {
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const { expr } of panel.targets!) {
        const names = metricNames(expr);
        expect(names.length, `${panel.title}: ${expr}`).toBeGreaterThan(0);
        for (const name of names) expect(scraped, `${panel.title}: ${name}`).toContain(name);
      }
    }
    for (const variable of dashboard.templating.list.filter((v) => v.type === "query")) {
      const metric = /label_values\(\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*,/.exec(variable.definition ?? "")?.[1];
      expect(scraped, variable.name).toContain(metric);
    }
  });
});
