/**
 * The page's localStorage, or null where there is none (a test's environment) or the browser refuses it (a privacy
 * setting in serve mode's browser): what is kept there (unkept drafts, unsaved chat settings) is then kept for the
 * page's life only.
 */
export function pageStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
