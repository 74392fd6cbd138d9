/**
 * Magic numbers of common binary formats Firebrand does not read (programs, archives, databases, model files), at
 * offset 0. A file of no known type is told apart from text by its bytes (a NUL says binary); a file too short to
 * hold a NUL yet, such as a 2-byte "MZ" (the start of a Windows program), passed as text and went to the model. Its
 * magic number says what it is however short it is. Used only where the file's type is not known (no extension
 * the page recognises): a file the user named `.txt` or `.csv` is not judged by its first letters. Pure.
 */

/** Each format's name (for readers of this list) and the bytes it starts with. */
const MAGIC_NUMBERS: readonly { format: string; bytes: readonly number[] }[] = [
  { format: 'Windows or DOS program (MZ)', bytes: ascii('MZ') },
  { format: 'Linux program or library (ELF)', bytes: [0x7f, ...ascii('ELF')] },
  { format: 'macOS program (Mach-O, 32-bit)', bytes: [0xfe, 0xed, 0xfa, 0xce] },
  { format: 'macOS program (Mach-O, 64-bit)', bytes: [0xfe, 0xed, 0xfa, 0xcf] },
  { format: 'macOS program (Mach-O, 32-bit, little-endian)', bytes: [0xce, 0xfa, 0xed, 0xfe] },
  { format: 'macOS program (Mach-O, 64-bit, little-endian)', bytes: [0xcf, 0xfa, 0xed, 0xfe] },
  { format: 'macOS universal program or Java class', bytes: [0xca, 0xfe, 0xba, 0xbe] },
  { format: 'WebAssembly module', bytes: [0x00, ...ascii('asm')] },
  { format: 'zip archive (and .xlsx, .pptx, .jar, .apk)', bytes: [...ascii('PK'), 0x03, 0x04] },
  { format: 'empty zip archive', bytes: [...ascii('PK'), 0x05, 0x06] },
  { format: 'gzip', bytes: [0x1f, 0x8b] },
  { format: 'xz', bytes: [0xfd, ...ascii('7zXZ'), 0x00] },
  { format: '7-Zip', bytes: [...ascii('7z'), 0xbc, 0xaf, 0x27, 0x1c] },
  { format: 'RAR', bytes: [...ascii('Rar!'), 0x1a, 0x07] },
  { format: 'Zstandard', bytes: [0x28, 0xb5, 0x2f, 0xfd] },
  { format: 'OLE compound file (.doc, .xls, .ppt, .msi)', bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] },
  { format: 'SQLite database', bytes: [...ascii('SQLite format 3'), 0x00] },
  { format: 'GGUF model', bytes: ascii('GGUF') },
];

/** The binary format `head` (a file's first bytes) starts with, if it is one of these; the whole magic number must be there. */
export function binaryFormatOf(head: Uint8Array): string | undefined {
  return MAGIC_NUMBERS.find(({ bytes }) => head.length >= bytes.length && bytes.every((b, i) => head[i] === b))?.format;
}

function ascii(s: string): number[] {
  return [...s].map((c) => c.charCodeAt(0));
}
