// The catalog token as the client holds it: checked to be one header's worth of visible ASCII
// (the forms of it that redaction removes from any text the tool shows are redact.ts's).
import { ConfigError } from '../model/errors.js';

/** The token given, trimmed; a ConfigError (never quoting it) when it is empty or holds a character a header cannot. */
export function checkedToken(raw: string): string {
  const token = raw.trim();
  if (token === '')
    throw new ConfigError('CATALOG_TOKEN is empty; set it to a token for the catalog');
  // A header holds one line of visible ASCII: a line break inside the token (a file read with
  // its newline, two tokens pasted) would make a request no server answers.
  const bad = /[^\x21-\x7e]/.exec(token);
  if (bad !== null) {
    const what =
      bad[0] === '\n' || bad[0] === '\r'
        ? 'a line break'
        : bad[0] === ' ' || bad[0] === '\t'
          ? 'a space'
          : `U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new ConfigError(
      `CATALOG_TOKEN holds a character a token cannot hold (${what}, at character ${bad.index + 1} of ${token.length}); a token is one line of letters, digits and punctuation: set it again without it`,
    );
  }
  return token;
}
