/**
 * Masks secrets and personal data in text before it leaves the console in a support bundle.
 * Default rules plus the operator's patterns (REDACT_PATTERNS). What was masked is reported by
 * kind and count, never the value. Redaction never fails open: a pattern that cannot be compiled,
 * matches the empty string, or runs past its time budget throws a RedactionError naming it, and
 * the caller produces no bundle.
 */

export const MASK = "[redacted]";

/** Time one operator pattern may spend over all the text of one bundle. */
export const PATTERN_BUDGET_MS = 2_000;

export class RedactionError extends Error {
  constructor(
    /** How a person finds the pattern: `REDACT_PATTERNS entry 2 (/…/)`. */
    readonly pattern: string,
    reason: string,
  ) {
    super(`${pattern} ${reason}`);
    this.name = "RedactionError";
  }
}

interface Rule {
  kind: string;
  /** Capture group 1 is kept before the mask (a label such as `Bearer ` or `?token=`; empty when none). */
  pattern: RegExp;
}

const SECRET_NAMES = [
  "api[_-]?key",
  "x-api-key",
  "apikey",
  "(?:access|refresh|id)[_-]?token",
  "client[_-]?secret",
  "webhook[_-]?secret",
  "private[_-]?key",
  "secret",
  "token",
  "password",
  "passwd",
  "pwd",
  "signature",
].join("|");

/**
 * The Messaging Hub's own keys (`mh_<kind>_…`) and webhook secrets (`whsec_…`), Stripe,
 * OpenAI-style, GitHub, Slack and AWS access keys, and JWTs.
 */
const KEY_SHAPES = [
  "mh_[a-z]{2,16}_[A-Za-z0-9_-]{16,}",
  "whsec_[A-Za-z0-9_+/-]{16,}",
  "(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{8,}",
  "sk-[A-Za-z0-9_-]{16,}",
  "gh[pousr]_[A-Za-z0-9]{20,}",
  "xox[abposr]-[A-Za-z0-9-]{10,}",
  "AKIA[0-9A-Z]{16}",
  "eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}",
].join("|");

/** Names of a field or word that the digits after it are a phone number. */
const PHONE_NAMES = [
  "recipient",
  "[A-Za-z_]*phone[A-Za-z_]*",
  "tel(?:ephone)?",
  "mobile",
  "msisdn",
  "wa_?id",
  "whatsapp",
  "sms",
].join("|");

/** Order matters: specific shapes first, so the generic ones see the mask and leave it alone. */
const DEFAULT_RULES: Rule[] = [
  {
    kind: "Basic-auth credentials",
    pattern: /(\bBasic\s+)[A-Za-z0-9+/]{6,}={0,2}/gi,
  },
  {
    kind: "Bearer tokens",
    pattern: /(\bBearer\s+)[A-Za-z0-9\-._~+/]{6,}=*/gi,
  },
  {
    kind: "Authorization credentials",
    // Any other scheme (`Token …`, `ApiKey …`) or a bare value; Basic and Bearer are masked above.
    pattern:
      /(\bAuthorization["']?\s{0,3}[:=]\s{0,3}["']?(?!(?:Basic|Bearer)\s)(?:[A-Za-z][A-Za-z-]*\s+)?)(?!\[redacted\])[^\s"',;}<>]{6,}/gi,
  },
  {
    kind: "Signatures",
    // `t=…,v1=<hex>` as a signature header carries it, whole; or its `v1=<hex>` alone.
    pattern: /()(?:\bt=\d{1,13}, ?)?\bv\d=[A-Za-z0-9+/_-]{16,}={0,2}(?:, ?v\d=[A-Za-z0-9+/_-]{16,}={0,2})*/g,
  },
  {
    kind: "URL credentials",
    // The `@` stays, so the host still reads as the host.
    pattern: /(\b[a-z][a-z0-9+.-]{1,20}:\/\/)[^\s/?#@"'<>]{1,256}(?=@)/gi,
  },
  {
    kind: "Secrets in URLs",
    pattern: new RegExp(`([?&;](?:${SECRET_NAMES}|key|sig|auth|code)=)(?!\\[redacted\\])[^&#\\s"'<>]+`, "gi"),
  },
  {
    kind: "Secrets in URLs",
    // URL-encoded inside another parameter (`?next=%2Fcb%3Fapi_key%3D…%26`): the value ends at `%26` or `%23`.
    pattern: new RegExp(
      `((?:[?&;]|%3F|%26)(?:${SECRET_NAMES}|key|sig|auth|code)%3D)(?!\\[redacted\\])(?:%(?!26|23)|[^&#%\\s"'<>])+`,
      "gi",
    ),
  },
  {
    kind: "API keys",
    pattern: new RegExp(`()\\b(?:${KEY_SHAPES})`, "g"),
  },
  {
    kind: "API keys",
    // A value named like a secret: `"apiKey": "…"`, `token=…`, `password: …`.
    pattern: new RegExp(
      `((?:["']?)\\b(?:${SECRET_NAMES})\\b["']?\\s{0,3}[:=]\\s{0,3}["']?)(?!\\[redacted\\])[^"'\\s,;&}<>]{3,}`,
      "gi",
    ),
  },
  {
    kind: "Email addresses",
    pattern: /()\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}\b/g,
  },
  {
    kind: "Phone numbers",
    // 10 to 15 bare digits (E.164 without its +, as the hub's To field takes them) only where a
    // recipient or phone is named: elsewhere the same digits are timestamps and numeric ids.
    pattern: new RegExp(
      `((?:\\b(?:${PHONE_NAMES})["']?\\s{0,3}[:=]?|["']?\\b(?:to|from)["']?\\s{0,3}[:=])\\s{0,3}["']?)\\+?\\d{10,15}(?![\\w:-]|\\.\\d)`,
      "gi",
    ),
  },
  {
    kind: "Phone numbers",
    // International (+ and 8 to 15 digits), the North American (555) 123-4567 / 555-123-4567, or
    // a national one with its area code in brackets, like (11) 99999-0000.
    pattern:
      /()(?:\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}\d\b|\(\d{2,4}\) ?\d{3,5}[ .-]?\d{4}\b|\b\d{3}[.-]\d{3}[.-]\d{4}\b)/g,
  },
];

export interface Redactor {
  /** The text with every match masked; counts what it masked into the redactor's report. */
  redact(text: string): string;
  /** What was masked so far, by kind (alphabetical) and count; kinds with no match left out. */
  report(): MaskedCount[];
}

export interface MaskedCount {
  kind: string;
  count: number;
}

/**
 * Reads one operator pattern: `source` or `/source/flags` (flags among i, m, s, u). Throws a
 * RedactionError naming it when it does not compile or matches the empty string.
 */
export function compilePattern(raw: string, label: string): RegExp {
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(raw);
  const source = literal ? literal[1]! : raw;
  const flags = literal ? literal[2]! : "";
  if (source.trim() === "") throw new RedactionError(label, "is empty. Remove it or write a pattern.");
  if (/[^imsu]/.test(flags))
    throw new RedactionError(label, `has flags "${flags}": only i, m, s and u are allowed.`);
  let pattern: RegExp;
  try {
    pattern = new RegExp(source, `${flags}g`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RedactionError(label, `is not a valid regular expression (${reason}). Fix it or remove it.`);
  }
  if (pattern.test("")) {
    throw new RedactionError(
      label,
      "matches empty text, so it would mask nothing useful. Make it match something.",
    );
  }
  pattern.lastIndex = 0;
  return pattern;
}

/** How a person finds operator pattern `index` (0-based) of REDACT_PATTERNS. */
export function patternLabel(index: number, raw: string): string {
  const shown = raw.length > 60 ? `${raw.slice(0, 57)}…` : raw;
  return `REDACT_PATTERNS entry ${index + 1} (${shown})`;
}

export interface RedactorOptions {
  /** REDACT_PATTERNS, as read by the config. */
  patterns?: readonly string[];
  /** Exact values to mask wherever they appear (the session's API key), reported as API keys. */
  literals?: readonly string[];
  /** Clock for the operator patterns' budget (tests pass a fake one). */
  now?: () => number;
}

/** A redactor for one bundle: its report counts across every text it redacted. */
export function createRedactor(options: RedactorOptions = {}): Redactor {
  const now = options.now ?? (() => performance.now());
  const operator = (options.patterns ?? []).map((raw, index) => {
    const label = patternLabel(index, raw);
    return { label, pattern: compilePattern(raw, label), spent: 0 };
  });
  const counts = new Map<string, number>();
  const count = (kind: string, n: number) => {
    if (n > 0) counts.set(kind, (counts.get(kind) ?? 0) + n);
  };
  const literals = (options.literals ?? []).filter((value) => value.length >= 4);

  return {
    redact(text) {
      let out = text;
      for (const literal of literals) {
        const parts = out.split(literal);
        count("API keys", parts.length - 1);
        out = parts.join(MASK);
      }
      for (const rule of DEFAULT_RULES) {
        out = out.replace(rule.pattern, (_match, prefix: string) => {
          count(rule.kind, 1);
          return `${prefix}${MASK}`;
        });
      }
      for (const entry of operator) {
        const started = now();
        try {
          out = out.replace(entry.pattern, () => {
            if (entry.spent + (now() - started) > PATTERN_BUDGET_MS) throw new Error("over budget");
            count("Operator patterns", 1);
            return MASK;
          });
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new RedactionError(
            entry.label,
            `failed while masking (${reason}). Simplify it or remove it.`,
          );
        }
        entry.spent += now() - started;
        if (entry.spent > PATTERN_BUDGET_MS) {
          throw new RedactionError(
            entry.label,
            `took longer than ${PATTERN_BUDGET_MS / 1000} s over this bundle's text. Simplify it (avoid nested repeats) or remove it.`,
          );
        }
      }
      return out;
    },
    report() {
      return [...counts]
        .map(([kind, n]) => ({ kind, count: n }))
        .sort((a, b) => a.kind.localeCompare(b.kind));
    },
  };
}
