import { Paperclip } from 'lucide-react';

/**
 * The paperclip that picks files, in the message box and in a message's edit form: a real file input inside the
 * label (visually hidden, not display:none), so Tab reaches it. Its value is cleared after each pick, so the same
 * file picked again (after it was removed) comes in again.
 */
export function AttachButton({ title, label, testId, onFiles }: { title: string; label: string; testId: string; onFiles: (files: File[]) => void }) {
  return (
    <label className="button icon-btn attach-button" title={title}>
      <Paperclip className="icon" aria-hidden />
      <input
        type="file"
        multiple
        className="sr-only"
        data-testid={testId}
        aria-label={label}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          onFiles(files);
        }}
      />
    </label>
  );
}
