/**
 * The alert inbox's SMTP listener (smtp-server): accepts any sender and recipient without
 * authentication and without TLS (it listens on the sandbox's interface, loopback by default),
 * and puts each message in the inbox with its decoded subject.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import type { AlertInbox } from "./inbox";

/** Largest message accepted. */
const MESSAGE_MAX_BYTES = 1024 * 1024;

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) decoded; anything else as is. */
export function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(
      /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g,
      (_all, _charset: string, encoding: string, text: string) => {
        if (encoding.toUpperCase() === "B") return Buffer.from(text, "base64").toString("utf8");
        const bytes = text
          .replace(/_/g, " ")
          .replace(/=([0-9A-Fa-f]{2})/g, (_hex, code: string) => `%${code}`);
        try {
          return decodeURIComponent(bytes);
        } catch {
          return text;
        }
      },
    );
}

/** A header of a raw message (unfolded), or "". */
function headerOf(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? "";
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : "";
}

export interface InboxSmtp {
  host: string;
  port: number;
  close(): Promise<void>;
}

export async function startInboxSmtp(inbox: AlertInbox, host: string, port: number): Promise<InboxSmtp> {
  const server = new SMTPServer({
    // Any user name and password are taken (SMTP_URL may carry some), over plain SMTP on the sandbox's interface.
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? "sandbox" }),
    size: MESSAGE_MAX_BYTES,
    logger: false,
    banner: "Messaging Hub sandbox alert inbox",
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (stream.sizeExceeded) {
          callback(
            Object.assign(new Error("Message too large for the sandbox inbox"), { responseCode: 552 }),
          );
          return;
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        const mailFrom = session.envelope.mailFrom;
        inbox.add({
          channel: "email",
          title: decodeHeader(headerOf(raw, "Subject")),
          verified: null,
          problem: null,
          messageId: headerOf(raw, "Message-ID") || null,
          from: mailFrom ? mailFrom.address : null,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          body: raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(port, host, () => {
      server.server.off("error", reject);
      resolve();
    });
  });
  return {
    host,
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
