// Windows-1252 differs from Latin-1 only in 0x80–0x9F: these are its characters there (index = byte − 0x80).
// The five bytes 1252 leaves undefined are null: a file holding one is in neither encoding.
const WINDOWS_1252_HIGH: readonly (number | null)[] = [
  0x20ac,
  null,
  0x201a,
  0x0192,
  0x201e,
  0x2026,
  0x2020,
  0x2021,
  0x02c6,
  0x2030,
  0x0160,
  0x2039,
  0x0152,
  null,
  0x017d,
  null,
  null,
  0x2018,
  0x2019,
  0x201c,
  0x201d,
  0x2022,
  0x2013,
  0x2014,
  0x02dc,
  0x2122,
  0x0161,
  0x203a,
  0x0153,
  null,
  0x017e,
  0x0178,
];

/** The character code of a Windows-1252 byte; null for the five bytes it leaves undefined. */
export function windows1252CodeOf(byte: number): number | null {
  return byte >= 0x80 && byte <= 0x9f ? WINDOWS_1252_HIGH[byte - 0x80] : byte;
}
