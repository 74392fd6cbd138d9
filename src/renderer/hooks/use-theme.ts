import { useEffect } from 'react';
import type { Theme } from '../../shared/ipc';
import { useStore } from '../store';

/** Applies the saved (or previewed) theme to <html data-theme>; `system` follows the OS and its changes live. */
export function useTheme(): void {
  // The theme being picked in Settings shows before it is saved (the dialog clears it when it closes).
  const theme: Theme = useStore((s) => s.previewTheme ?? s.settings?.theme ?? 'system');
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      document.documentElement.dataset.theme = theme === 'system' ? (media.matches ? 'dark' : 'light') : theme;
    };
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [theme]);
}
