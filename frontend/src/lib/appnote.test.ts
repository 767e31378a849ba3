// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { splitAppNote } from './appnote';

describe('splitAppNote', () => {
  it("separates the app's hand-edit note from the user's words", () => {
    const note = '<hand-edits>\nThese colours are LOCKED by the user.\n- ui.accent = #3355ff\n</hand-edits>';
    expect(splitAppNote('Make it warmer\n' + note)).toEqual({ words: 'Make it warmer', note: 'These colours are LOCKED by the user.\n- ui.accent = #3355ff' });
    expect(splitAppNote('Make it warmer')).toEqual({ words: 'Make it warmer', note: '' });
    // The tag typed mid-message is the user's.
    expect(splitAppNote('see <hand-edits>x</hand-edits> here').note).toBe('');
    expect(splitAppNote('see <hand-edits>x</hand-edits>').note).toBe('');
  });
});
