/**
 * Chromium calls every image pasted from the clipboard "image.png": three pasted screenshots were "image.png",
 * "image (2).png" and "image (3).png", and the next message's was "image.png" again. They are "Pasted image N",
 * numbered on through the chat; a copied file keeps its own name.
 */
import { describe, expect, it } from 'vitest';
import { attachmentNames, namePastedImages, nextPastedNumber } from '../../src/renderer/components/composer/pasted-names';

const png = (name: string) => new File([new Uint8Array([1, 2, 3])], name, { type: 'image/png' });

describe('a pasted image’s name', () => {
  it('is "Pasted image N" for the clipboard’s "image.png", numbered in the order pasted', () => {
    const named = namePastedImages([png('image.png'), png('image.png')], []);
    expect(named.map((f) => f.name)).toEqual(['Pasted image 1.png', 'Pasted image 2.png']);
    expect(named[0]?.type).toBe('image/png');
    expect(named[0]?.size).toBe(3);
  });

  it('goes on from the chat’s pasted images, sent or waiting', () => {
    const turns = [{ blocks: [{ type: 'attachment' as const, id: 'a', kind: 'image' as const, name: 'Pasted image 2.png', mime: 'image/png', size: 3 }] }];
    const taken = attachmentNames(turns, [{ name: 'Pasted image 3.jpg' }, { name: 'login.png' }]);
    expect(nextPastedNumber(taken)).toBe(4);
    expect(namePastedImages([png('image.png')], taken)[0]?.name).toBe('Pasted image 4.png');
  });

  it('keeps a copied file’s name, and names a picture with none by its type', () => {
    const files = namePastedImages([png('login.png'), new File([new Uint8Array([1])], '', { type: 'image/jpeg' }), new File(['a'], 'image.txt', { type: 'text/plain' })], []);
    expect(files.map((f) => f.name)).toEqual(['login.png', 'Pasted image 1.jpg', 'image.txt']);
  });
});
