/**
 * Whether Settings is open, and the field it opens at. The frame (App.tsx) owned it alone, so only the sidebar and
 * the banners could open it: the line under the message box says the GPU memory is unknown, and its "Set it" opens
 * Settings at GPU memory (the field focused) without a prop through every component between.
 */
import { create } from 'zustand';

/** A field Settings can open at. */
export type SettingsField = 'gpu';

interface SettingsOpen {
  open: boolean;
  /** The field focused as it opens; null: the dialog's first. */
  at: SettingsField | null;
}

export const useSettingsOpen = create<SettingsOpen>(() => ({ open: false, at: null }));

export function openSettings(at: SettingsField | null = null): void {
  useSettingsOpen.setState({ open: true, at });
}

export function closeSettings(): void {
  useSettingsOpen.setState({ open: false, at: null });
}
