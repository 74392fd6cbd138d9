/**
 * A plain sentence to lead a tool's error with, where the error is a well-known system code: the filesystem server
 * answers "ENOENT: no such file or directory, open '/home/me/notes.txt'", Node's words, which a user has to decode.
 * Only the card shows the sentence: the model reads the tool's words as they came. Undefined for any other error.
 */
export function toolErrorLead(content: string): string | undefined {
  // Node's form, at the start of a line, after an "Error:" of the server's at most: "EACCES: permission denied, open '/x'".
  const found = /^(?:[\w ]*Error:\s*)?(ENOENT|EACCES|EPERM|EISDIR|ENOTDIR): ([^\n]*)/m.exec(content);
  if (!found) return undefined;
  const [, code, rest = ''] = found;
  const path = /'([^'\n]+)'/.exec(rest)?.[1];
  switch (code) {
    case 'ENOENT':
      return path ? `There is no file or folder at ${path}.` : 'There is no such file or folder.';
    case 'EACCES':
    case 'EPERM':
      return path ? `The tool server was not allowed to open ${path}: permission denied.` : 'The tool server was not allowed to do that: permission denied.';
    case 'EISDIR':
      return path ? `${path} is a folder, where a file was needed.` : 'That is a folder, where a file was needed.';
    default:
      return path ? `${path} is not a folder.` : 'That is not a folder.';
  }
}
