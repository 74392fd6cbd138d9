import { useEffect, useState } from 'react';
import { cachedImageUrl, holdImageUrl, imageUrl } from '../../store/image-urls';

/**
 * The object URL of image attachment `id` while the calling component shows it: undefined while it is read, null
 * when it cannot be shown. The URL is held for as long as the component is mounted (store/image-urls.ts revokes it
 * once nothing shows it).
 */
export function useImageUrl(id: string | null): string | null | undefined {
  const [shown, setShown] = useState<{ id: string | null; url: string | null | undefined }>(() => ({ id, url: id === null ? undefined : cachedImageUrl(id) }));
  useEffect(() => {
    if (id === null) return;
    const release = holdImageUrl(id);
    let live = true;
    // Read again once held: the URL this rendered with may have been swept between the render and now.
    const cached = cachedImageUrl(id);
    if (cached) setShown((s) => (s.id === id && s.url === cached ? s : { id, url: cached }));
    else {
      setShown((s) => (s.id === id && s.url === undefined ? s : { id, url: undefined }));
      void imageUrl(id).then((url) => live && setShown({ id, url }));
    }
    return () => {
      live = false;
      release();
    };
  }, [id]);
  return shown.id === id ? shown.url : undefined;
}
