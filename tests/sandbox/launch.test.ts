/** What the launcher (npm run dev / npm start) runs, decided from the environment. */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { consoleCommand, consoleUrl, parseMode, sandboxCommand, usesSandbox } from "../../lib/launch/plan";

const root = "/repo";

describe("launch plan", () => {
  it("accepts dev and start only", () => {
    expect(parseMode("dev")).toBe("dev");
    expect(parseMode("start")).toBe("start");
    expect(parseMode("build")).toBeUndefined();
    expect(parseMode(undefined)).toBeUndefined();
  });

  it("starts the sandbox only when HUB_BASE_URL is unset or empty", () => {
    expect(usesSandbox({})).toBe(true);
    expect(usesSandbox({ HUB_BASE_URL: "  " })).toBe(true);
    expect(usesSandbox({ HUB_BASE_URL: "https://api.example.com" })).toBe(false);
  });

  it("runs the sandbox with tsx on SANDBOX_PORT, default 4010, inheriting the rest", () => {
    const cmd = sandboxCommand({ SANDBOX_DB: "/tmp/x.sqlite" }, root);
    expect(cmd.command).toBe(path.join(root, "node_modules/.bin/tsx"));
    expect(cmd.args).toEqual([path.join(root, "lib/sandbox/main.ts")]);
    expect(cmd.env).toMatchObject({ SANDBOX_PORT: "4010", SANDBOX_DB: "/tmp/x.sqlite" });
    expect(sandboxCommand({ SANDBOX_PORT: "0" }, root).env.SANDBOX_PORT).toBe("0");
  });

  it("runs next dev|start on PORT (default 3000) with the sandbox as HUB_BASE_URL and HUB_SANDBOX=1", () => {
    const cmd = consoleCommand("start", {}, root, "http://127.0.0.1:4010");
    expect(cmd.command).toBe(path.join(root, "node_modules/.bin/next"));
    expect(cmd.args).toEqual(["start", "-p", "3000"]);
    expect(cmd.env).toMatchObject({
      HUB_BASE_URL: "http://127.0.0.1:4010",
      HUB_SANDBOX: "1",
      NEXT_TELEMETRY_DISABLED: "1",
    });
  });

  it("passes -H only when HOST is set", () => {
    expect(consoleCommand("dev", { PORT: "3100", HOST: "0.0.0.0" }, root, undefined).args).toEqual([
      "dev",
      "-p",
      "3100",
      "-H",
      "0.0.0.0",
    ]);
  });

  it("with HUB_BASE_URL set, keeps it and is not in sandbox mode", () => {
    const cmd = consoleCommand(
      "dev",
      { HUB_BASE_URL: "https://api.example.com", HUB_SANDBOX: "1" },
      root,
      undefined,
    );
    expect(cmd.env.HUB_BASE_URL).toBe("https://api.example.com");
    expect(cmd.env.HUB_SANDBOX).toBeUndefined();
  });

  it("shows the console at localhost unless HOST names an interface", () => {
    expect(consoleUrl({})).toBe("http://localhost:3000");
    expect(consoleUrl({ PORT: "3100", HOST: "0.0.0.0" })).toBe("http://localhost:3100");
    expect(consoleUrl({ HOST: "192.168.1.5" })).toBe("http://192.168.1.5:3000");
  });
});
