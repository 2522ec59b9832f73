/**
 * TEST ONLY. A real `redis-server` on a free loopback port, without persistence, for one test
 * file: started, stopped (an outage), started again on the same port (a recovery), paused with
 * SIGSTOP (a hung server). CI installs redis-server (.ci/run); a missing one fails the test.
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { freePort } from "./server-process";

export interface RedisServer {
  port: number;
  url: string;
  /** Starts it (again) on the same port; resolves once it answers PING. */
  start(): Promise<void>;
  /** Stops it; resolves once it has exited. */
  stop(): Promise<void>;
  /** SIGSTOP / SIGCONT: a server that keeps its connections but answers nothing. */
  pause(): void;
  resume(): void;
}

function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}

export async function redisServer(port?: number): Promise<RedisServer> {
  const chosen = port ?? (await freePort());
  let child: ChildProcess | undefined;
  let output = "";
  const server: RedisServer = {
    port: chosen,
    url: `redis://127.0.0.1:${chosen}`,
    async start() {
      output = "";
      const started = spawn(
        "redis-server",
        ["--port", String(chosen), "--save", "", "--appendonly", "no", "--bind", "127.0.0.1"],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      child = started;
      started.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      started.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const failed = new Promise<never>((_, reject) => {
        started.once("error", (error) => reject(new Error(`redis-server could not start: ${error.message}`)));
        started.once("exit", (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
      });
      failed.catch(() => undefined);
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        if (await Promise.race([pong(chosen), failed])) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`redis-server did not answer on port ${chosen}:\n${output}`);
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGCONT");
      running.kill("SIGKILL");
      await exited;
    },
    pause() {
      child?.kill("SIGSTOP");
    },
    resume() {
      child?.kill("SIGCONT");
    },
  };
  await server.start();
  return server;
}
