/** Longest subject Hookflow sends (in characters); longer subjects are cut. */
export const SUBJECT_MAX_CHARS = 200;

/** C0 controls (CR and LF among them), DEL, C1 controls and the Unicode line separators. */
function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
}

/**
 * Text on one line: every run of control characters (line breaks included) becomes one space.
 * What goes into a mail header must pass through here, so text from a request or a payload can
 * never end the header and start another (`Bcc:` injection).
 */
export function oneLine(value: string): string {
  let out = "";
  let gap = false;
  for (const char of value) {
    if (isControl(char.codePointAt(0) ?? 0)) {
      gap = true;
      continue;
    }
    if (gap && out.length > 0) out += " ";
    gap = false;
    out += char;
  }
  return out.trim();
}

/** A subject built from any text: one line, at most `SUBJECT_MAX_CHARS` characters. */
export function mailSubject(value: string): string {
  return [...oneLine(value)].slice(0, SUBJECT_MAX_CHARS).join("");
}
