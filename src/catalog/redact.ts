// Taking secrets out of text the tool shows: the catalog token in any form a server, a proxy or an
// error page may quote it (whole, percent-encoded, base64-encoded as in a Basic header, any piece
// of it long enough to tell), and credentials of known shapes whatever the token is (an
// Authorization header, a URL's user:password@, a GitHub token, a JWT). Redaction always comes
// before any cut: a token cut in two by a cut is no longer a form anything can find.

/** What stands in for whatever redaction takes out. */
export const REDACTED = '***';

/**
 * The shortest run of characters shared with a form of the token that is taken out. Eight
 * characters of a token (48 bits of a base64 one) never occur in other text by chance, and fewer
 * tell an attacker next to nothing; a token shorter than this is taken out whole.
 */
export const PIECE = 8;

/** What a credential of a shape becomes, from the groups its pattern captured. */
type Replacer = (match: string, head?: string, scheme?: string) => string;

/**
 * Credentials of known shapes, each with what it becomes. Every pattern runs in time linear in the
 * text (its repeats are bounded, or end where the next possible start begins): a hostile answer
 * cannot make redaction slow.
 */
const SHAPES: readonly [RegExp, Replacer][] = [
  // An Authorization header as a server or a git config quotes it (`AUTHORIZATION: basic …`,
  // `"authorization":"Bearer …"`, `authorization=token …`): the scheme stays, the credential goes.
  [
    /\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?)(?:(basic|bearer|token|digest|negotiate)\s+)?[^\s"',;<>]+/gi,
    (_, head, scheme) => `${head!}${scheme === undefined ? '' : `${scheme} `}${REDACTED}`,
  ],
  // A bearer credential quoted without its header.
  [/\b(bearer)\s+[A-Za-z0-9\-._~+/]{16,4096}=*/gi, (_, scheme) => `${scheme!} ${REDACTED}`],
  // A URL's password (`https://x-access-token:…@github.com`), and git's credential user alone.
  [
    /\b([a-z][a-z0-9+.-]{0,31}:\/\/[^\s/@:]{0,256}:)[^\s/@]{1,4096}@/gi,
    (_, head) => `${head!}${REDACTED}@`,
  ],
  [/\b(x-access-token:)[^\s@"'<>]+/gi, (_, head) => `${head!}${REDACTED}`],
  // GitHub's tokens: personal (classic and fine-grained), OAuth, app installation, refresh.
  [/\b(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})/g, () => REDACTED],
  // A JWT, anyone's: header and payload are base64url JSON (`eyJ`), then its signature.
  [
    /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,4096}\.eyJ[A-Za-z0-9_-]{4,4096}\.[A-Za-z0-9_-]*/g,
    () => REDACTED,
  ],
];

/** The base64 of `bytes` in both alphabets, without padding. */
function base64Both(bytes: Buffer): string[] {
  const plain = bytes.toString('base64').replace(/=+$/, '');
  return [plain, plain.replace(/\+/g, '-').replace(/\//g, '_')];
}

/**
 * The forms in which a text may quote `token`: as it is, percent-encoded, and base64-encoded at
 * each of the three alignments it can have inside a longer encoded text (`user:token` in a Basic
 * header), without the characters at either end that depend on the bytes around it.
 */
export function tokenForms(token: string): string[] {
  const forms = new Set([token, encodeURIComponent(token)]);
  const bytes = Buffer.from(token, 'utf8');
  for (const [offset, cutFront] of [
    [0, 0],
    [1, 2],
    [2, 3],
  ] as const)
    for (const encoded of base64Both(Buffer.concat([Buffer.alloc(offset), bytes]))) {
      const stable = encoded.slice(cutFront, encoded.length - 3);
      if (stable.length >= PIECE) forms.add(stable);
    }
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * A function that takes `token` out of a text in every form (see tokenForms), and so every run of
 * PIECE characters or more of any of its forms (a JWT's signature or payload quoted alone, a
 * token an error page cut, or broke across lines), then every credential of a known shape.
 */
export function redactorFor(token: string): (text: string) => string {
  // No token (a run without one): the credentials of known shapes only.
  const forms = token === '' ? [] : tokenForms(token);
  const short = forms.filter((form) => form.length < PIECE);
  const pieces = new Set<string>();
  for (const form of forms)
    for (let at = 0; at + PIECE <= form.length; at++) pieces.add(form.slice(at, at + PIECE));
  return (text) => {
    let redacted = text;
    for (const form of short) redacted = redacted.split(form).join(REDACTED);
    redacted = withoutPieces(redacted, pieces);
    for (const [shape, replacement] of SHAPES) redacted = redacted.replace(shape, replacement);
    return redacted;
  };
}

/** `text` with every run covered by some of `pieces` (all PIECE long) written as REDACTED. */
function withoutPieces(text: string, pieces: ReadonlySet<string>): string {
  const runs: [number, number][] = [];
  for (let at = 0; at + PIECE <= text.length; at++) {
    if (!pieces.has(text.slice(at, at + PIECE))) continue;
    const last = runs.at(-1);
    if (last !== undefined && at <= last[1]) last[1] = at + PIECE;
    else runs.push([at, at + PIECE]);
  }
  if (runs.length === 0) return text;
  let out = '';
  let kept = 0;
  for (const [start, end] of runs) {
    out += `${text.slice(kept, start)}${REDACTED}`;
    kept = end;
  }
  return `${out}${text.slice(kept)}`;
}

/**
 * How far past a cut redaction reads: a credential that begins before the cut is seen whole (or
 * as much of it as any of SHAPES needs) when it is at most this long.
 */
const CUT_MARGIN = 64 * 1024;

/**
 * `text` redacted, then cut to `max` characters. Only the first `max` + CUT_MARGIN characters are
 * redacted, so that a huge answer costs no more than a small one: everything that reaches into
 * the first `max` characters lies inside them (a run of a token's form is found by the pieces that
 * overlap the cut, whatever its length).
 */
export function redactThenCut(text: string, max: number, redact: (text: string) => string): string {
  return redact(text.slice(0, max + CUT_MARGIN)).slice(0, max);
}
