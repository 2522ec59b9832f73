/**
 * The one redaction of everything that leaves the console: support bundles, alerts of every kind
 * (masked before the outbox stores them) and exports marked for a customer. It masks secrets and
 * personal data: credentials in headers and URLs, values named like secrets however the name is
 * joined (`db_password`, `AUTH_TOKEN`, `stripeSecretKey`, `x-api-key`), cookies, known key shapes,
 * card numbers (Luhn) and IBANs (mod 97), emails and phone numbers, plus the operator's patterns
 * (REDACT_PATTERNS). What was masked is reported by kind and count, never the value. Redaction
 * never fails open: a pattern that cannot be compiled, matches the empty string, or runs past its
 * time budget throws a RedactionError naming it, and the caller sends nothing.
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

type Groups = Partial<Record<"keep" | "tail" | "name", string>>;

/** One default rule: what it masks is counted under `kind`. */
type Rule = { kind: string } & (
  | {
      pattern: RegExp;
      /** A match's replacement, or null to leave it as it is; `masked` when not given. */
      replace?: (match: string, groups: Groups) => string | null;
    }
  | { mask: (text: string, counted: () => void) => string }
);

/**
 * The match masked but for its named groups `keep` (before it: a label such as `Bearer ` or
 * `?token=`) and `tail` (after it: a closing tag); null when it is the mask already.
 */
function masked(match: string, { keep = "", tail = "" }: Groups): string | null {
  const secret = match.slice(keep.length, match.length - tail.length);
  return secret === MASK ? null : `${keep}${MASK}${tail}`;
}

/** Masks the match when `test` says its groups name a secret. */
const maskedWhen =
  (test: (groups: Groups) => boolean) =>
  (match: string, groups: Groups): string | null =>
    test(groups) ? masked(match, groups) : null;

const wordSet = (words: string) => new Set(words.split(" "));

/** Words that make a name a secret's wherever they stand in it; a word must end with one, so `passwordless` and `tokenizer` do not. */
const SECRET_WORD =
  /(?:password|passwd|passphrase|pwd|secret|token|apikey|privatekey|secretkey|accesskey|credentials?|sess(?:ion)?id|jwt|signature)$/;

/** Words that make a name a secret's when it ends with them (`basic_auth`, `db_pass`, `card_cvv`). */
const SECRET_LAST_WORDS = wordSet("auth pass sig pin otp cvv cvv2 cvc csc sid session cookie");

/** `key` ends a secret's name after one of these (`api_key`, `x-api-key`, `stripe_secret_key`); alone, `key` is too common. */
const KEY_QUALIFIERS = wordSet(
  "api access secret private signing encryption master client auth app license subscription webhook session",
);

/** A name's words, however they are joined: `stripeSecretKey`, `AUTH_TOKEN`, `x-api-key`, `ns:Password`. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z\d]+/)
    .filter((word) => word !== "");
}

/** Last words that make a name about a secret rather than the secret itself (`token_count`, `password_expires_at`). */
const ABOUT_WORDS = wordSet(
  "count type length size ttl expiry expires in at url uri endpoint name hint policy method format version limit used remaining usage",
);

/** Whether a field, header, parameter or tag of this name holds a secret. */
export function isSecretName(name: string): boolean {
  const words = nameWords(name);
  const last = words.at(-1) ?? "";
  const before = words.at(-2) ?? "";
  return (
    (!ABOUT_WORDS.has(last) && words.some((word) => SECRET_WORD.test(word))) ||
    SECRET_LAST_WORDS.has(last) ||
    (last === "key" && KEY_QUALIFIERS.has(before)) ||
    (last === "id" && before === "session")
  );
}

/** Query parameters that carry secrets in URLs, though the same names are ordinary in a body. */
const URL_SECRET_NAMES = new Set(["key", "sig", "code", "auth", "access", "hash"]);

const isSecretParameter = ({ name = "" }: Groups) =>
  isSecretName(name) || URL_SECRET_NAMES.has(name.toLowerCase());

/**
 * The Messaging Hub's own keys (`mh_<kind>_…`) and webhook secrets (`whsec_…`), Stripe,
 * OpenAI-style, GitHub, GitLab, Slack, Google and AWS access keys, and JWTs.
 */
const KEY_SHAPES = [
  "mh_[a-z]{2,16}_[A-Za-z0-9_-]{16,}",
  "whsec_[A-Za-z0-9_+/-]{16,}",
  "(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{8,}",
  "sk-[A-Za-z0-9_-]{16,}",
  "gh[pousr]_[A-Za-z0-9]{20,}",
  "glpat-[A-Za-z0-9_-]{20,}",
  "xox[abposr]-[A-Za-z0-9-]{10,}",
  "AIza[0-9A-Za-z_-]{35}",
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

/**
 * The label of a value named like a secret: `"db_password": "`, `AUTH_TOKEN=`, `x-api-key: `,
 * `:password => `, JSON inside a JSON string (`\"token\":`), a line of escaped text (`\npassword: `).
 */
const NAME_LABEL =
  /(?:(?<=\\[nrt])|(?<![\w$.\\-]))(?<q>\\?["'])?(?<name>[A-Za-z_$][\w$.-]{0,63})\k<q>\s{0,3}(?:=>|[:=])\s{0,3}/g;

/**
 * The value after such a label. Quoted, the whole quoted text; after `:` unquoted (a header,
 * YAML), the rest of the line up to `,` `;` or `}`; after `=` (a form, a query, an env line), up
 * to the next space or `&`.
 */
const NAMED_VALUE =
  /\\"(?:[^"\\]|\\(?!"))*\\"|"(?:[^"\\\r\n]|\\.)*"|'[^'\r\n]*'|(?<=:\s{0,3})[^\s"',;&<>}]+(?:[ \t]+[^\s"',;&<>}]+)*|[^\s"',;&<>}]+/y;

/**
 * Masks the values of names that are a secret's, keeping their quotes; a flag or null is no
 * secret to hide. The name is judged before its value is read, so a value that is no secret's is
 * looked into (JSON inside a JSON string) and the scan stays linear.
 */
function maskNamedValues(text: string, counted: () => void): string {
  let out = "";
  let done = 0;
  NAME_LABEL.lastIndex = 0;
  for (let label = NAME_LABEL.exec(text); label; label = NAME_LABEL.exec(text)) {
    if (!isSecretName(label.groups!.name!)) continue;
    const start = label.index + label[0].length;
    NAMED_VALUE.lastIndex = start;
    const value = NAMED_VALUE.exec(text)?.[0] ?? "";
    const quote = /^\\?["']/.exec(value)?.[0] ?? "";
    const inner = value.slice(quote.length, value.length - quote.length);
    if (inner.trim() === "" || inner.includes(MASK) || /^(?:true|false|null|undefined)$/i.test(inner))
      continue;
    counted();
    out += `${text.slice(done, start)}${quote}${MASK}${quote}`;
    done = start + value.length;
    NAME_LABEL.lastIndex = done;
  }
  return out + text.slice(done);
}

/** Card numbers by brand: the first digits and the lengths each issues (the Luhn check comes on top). */
const CARD_BRANDS: Array<[RegExp, number[]]> = [
  [/^4/, [13, 16, 19]], // Visa
  [/^(?:5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720))/, [16]], // Mastercard
  [/^3[47]/, [15]], // American Express
  [/^3(?:0[0-5]|[689])/, [14, 16]], // Diners Club
  [/^(?:35|6|5[06-8])/, [16, 17, 18, 19]], // JCB, Discover, UnionPay, Maestro
];

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A card number: a brand's prefix and length, and the Luhn check; so order numbers and epoch times stay. */
export function isCardNumber(text: string): boolean {
  const digits = text.replace(/[ -]/g, "");
  return (
    luhn(digits) &&
    CARD_BRANDS.some(([prefix, lengths]) => prefix.test(digits) && lengths.includes(digits.length))
  );
}

/** An IBAN: a country, check digits that hold (mod 97 = 1), 15 to 34 characters. */
export function isIban(text: string): boolean {
  const iban = text.replace(/ /g, "").toUpperCase();
  if (iban.length < 15 || iban.length > 34) return false;
  let rest = 0;
  for (const char of iban.slice(4) + iban.slice(0, 4)) {
    const value = Number.parseInt(char, 36);
    rest = (rest * (value < 10 ? 10 : 100) + value) % 97;
  }
  return rest === 1;
}

/** The longest IBAN at the start of a match (groups of four may run into the next word), masked; null when none. */
function maskIban(match: string): string | null {
  const groups = match.split(" ");
  for (let count = groups.length; count > 0; count--) {
    const candidate = groups.slice(0, count).join(" ");
    if (isIban(candidate)) return [MASK, ...groups.slice(count)].join(" ");
  }
  return null;
}

/** Order matters: specific shapes first, so the generic ones see the mask and leave it alone. */
const DEFAULT_RULES: Rule[] = [
  {
    kind: "Basic-auth credentials",
    pattern: /(?<keep>\bBasic\s+)[A-Za-z0-9+/]{6,}={0,2}/gi,
  },
  {
    kind: "Bearer tokens",
    pattern: /(?<keep>\bBearer\s+)[A-Za-z0-9\-._~+/]{6,}=*/gi,
  },
  {
    kind: "Authorization credentials",
    // Any other scheme (`Token …`, `ApiKey …`) or a bare value; Basic and Bearer are masked above.
    pattern:
      /(?<keep>\bAuthorization\\?["']?\s{0,3}[:=]\s{0,3}\\?["']?(?!(?:Basic|Bearer)\s)(?:[A-Za-z][A-Za-z-]*\s+)?)[^\s"'\\,;}<>]{6,}/gi,
  },
  {
    kind: "Cookies",
    // A Cookie or Set-Cookie header, or a field so named: every cookie in it, to the end of the line.
    pattern: /(?<keep>\b(?:set[-_]?)?cookies?\\?["']?\s{0,3}[:=]\s{0,3}\\?["']?)[^\s"'\\][^\r\n"'\\]*/gi,
  },
  {
    kind: "Signatures",
    // `t=…,v1=<hex>` as a signature header carries it, whole; or its `v1=<hex>` alone.
    pattern: /(?:\bt=\d{1,13}, ?)?\bv\d=[A-Za-z0-9+/_-]{16,}={0,2}(?:, ?v\d=[A-Za-z0-9+/_-]{16,}={0,2})*/g,
  },
  {
    kind: "URL credentials",
    // The `@` stays, so the host still reads as the host.
    pattern: /(?<keep>\b[a-z][a-z0-9+.-]{1,20}:\/\/)[^\s/?#@"'<>]{1,256}(?=@)/gi,
  },
  {
    kind: "Secrets in URLs",
    pattern: /(?<keep>[?&;#](?<name>[\w.[\]-]{1,64})=)[^&#\s"'<>]+/g,
    replace: maskedWhen(isSecretParameter),
  },
  {
    kind: "Secrets in URLs",
    // URL-encoded inside another parameter (`?next=%2Fcb%3Fapi_key%3D…%26`): the value ends at `%26` or `%23`.
    pattern: /(?<keep>(?:[?&;]|%3F|%26)(?<name>[\w.-]{1,64})%3D)(?:%(?!26|23)|[^&#%\s"'<>])+/gi,
    replace: maskedWhen(isSecretParameter),
  },
  {
    kind: "API keys",
    pattern: new RegExp(`\\b(?:${KEY_SHAPES})`, "g"),
  },
  { kind: "Named secrets", mask: maskNamedValues },
  {
    kind: "Named secrets",
    // XML-ish: `<db_password>…</db_password>`, `<ns:AuthToken>…</ns:AuthToken>`.
    pattern:
      /(?<keep><(?<name>[A-Za-z_][\w.:-]{0,63})(?:\s[^<>]{0,256})?>)\s*[^\s<][^<]{0,4095}(?<tail><\/\k<name>\s*>)/g,
    replace: maskedWhen(({ name = "" }) => isSecretName(name)),
  },
  {
    kind: "Card numbers",
    // Bare, or in groups split by spaces or dashes (4-4-4-4, 4-6-5, 4-4-4-4-3…).
    pattern:
      /(?<![\w+/.-])(?:\d{13,19}|\d{4}(?<sep>[ -])\d{4,6}(?:\k<sep>\d{4,5}){1,2}(?:\k<sep>\d{1,4})?)(?!\w|[./-]\d)/g,
    replace: (match) => (isCardNumber(match) ? MASK : null),
  },
  {
    kind: "IBANs",
    pattern: /\b[A-Z]{2}\d{2}(?:[A-Z\d]{11,30}|(?: [A-Z\d]{4}){2,7}(?: [A-Z\d]{1,4})?)\b/gi,
    replace: maskIban,
  },
  {
    kind: "Email addresses",
    pattern: /\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}\b/g,
  },
  {
    kind: "Phone numbers",
    // 10 to 15 bare digits (E.164 without its +, as the hub's To field takes them) only where a
    // recipient or phone is named: elsewhere the same digits are timestamps and numeric ids.
    pattern: new RegExp(
      `(?<keep>(?:\\b(?:${PHONE_NAMES})["']?\\s{0,3}[:=]?|["']?\\b(?:to|from)["']?\\s{0,3}[:=])\\s{0,3}["']?)\\+?\\d{10,15}(?![\\w:-]|\\.\\d)`,
      "gi",
    ),
  },
  {
    kind: "Phone numbers",
    // International (+ and 8 to 15 digits), the North American (555) 123-4567 / 555-123-4567, or
    // a national one with its area code in brackets, like (11) 99999-0000.
    pattern:
      /(?:\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}\d\b|\(\d{2,4}\) ?\d{3,5}[ .-]?\d{4}\b|\b\d{3}[.-]\d{3}[.-]\d{4}\b)/g,
  },
];

/**
 * Masks what `rule` finds in `text`. A match it leaves (a parameter or tag that is no secret's) is
 * looked into again from its value on, so a secret nested in it is still found.
 */
function applyRule(rule: Rule, text: string, counted: () => void): string {
  if ("mask" in rule) return rule.mask(text, counted);
  const { pattern, replace = masked } = rule;
  pattern.lastIndex = 0;
  let out = "";
  let done = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const groups: Groups = match.groups ?? {};
    const replaced = replace(match[0], groups);
    if (replaced === null || replaced === match[0]) {
      pattern.lastIndex = match.index + Math.max(1, groups.keep?.length ?? 0);
      continue;
    }
    counted();
    out += text.slice(done, match.index) + replaced;
    done = match.index + match[0].length;
  }
  return out + text.slice(done);
}

export interface Redactor {
  /** The text with every match masked; counts what it masked into the redactor's report. */
  redact(text: string): string;
  /**
   * A URL as it may be shown (a webhook's endpoint): what `redact` masks, and every query and
   * fragment value besides (`?shop=[redacted]`), since receivers often take their credentials there.
   */
  redactUrl(url: string): string;
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

/** A redactor for one bundle or alert: its report counts across every text it redacted. */
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

  function redact(text: string): string {
    let out = text;
    for (const literal of literals) {
      const parts = out.split(literal);
      count("API keys", parts.length - 1);
      out = parts.join(MASK);
    }
    for (const rule of DEFAULT_RULES) out = applyRule(rule, out, () => count(rule.kind, 1));
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
        throw new RedactionError(entry.label, `failed while masking (${reason}). Simplify it or remove it.`);
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
  }

  return {
    redact,
    redactUrl(url) {
      const text = redact(url);
      const start = text.search(/[?#]/);
      if (start < 0) return text;
      const parts = text
        .slice(start)
        .replace(/([?#&;])([^?#&;=]*=)?([^?#&;]*)/g, (part, separator: string, name = "", value: string) => {
          if (value === "" || value === MASK) return part;
          count("URL query values", 1);
          return `${separator}${name}${MASK}`;
        });
      return text.slice(0, start) + parts;
    },
    report() {
      return [...counts]
        .map(([kind, n]) => ({ kind, count: n }))
        .sort((a, b) => a.kind.localeCompare(b.kind));
    },
  };
}
