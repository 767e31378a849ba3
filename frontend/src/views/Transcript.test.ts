import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import Transcript from './Transcript.svelte';
import { flush, installWails } from '../test/wails';
import type { TranscriptMessage } from '../lib/types';

const msgs: TranscriptMessage[] = Array.from({ length: 60 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', text: `message ${i}`, time: '2026-12-01T10:00:00Z' }));
msgs[5] = { role: 'tool', time: '', text: '', tool: { name: 'exec_command', command: 'echo hello-from-shell', exitCode: 0, output: 'hello-from-shell\n' } };
msgs[7] = { role: 'assistant', time: '', text: 'See <img src=x onerror="window.__xss=1"> **bold**' };

function pages() {
  return (id: string, offset: number, limit: number) => ({
    id,
    title: 'Harbour night theme',
    cwd: '/home/dev/themes/work',
    messages: msgs.slice(offset, offset + limit),
    offset,
    nextOffset: Math.min(offset + limit, msgs.length),
    done: offset + limit >= msgs.length,
    skipped: offset === 0 ? 1 : 0,
  });
}

describe('Transcript', () => {
  it('loads page by page until done and renders tools as cards, agent text sanitized', async () => {
    const w = installWails({ TranscriptPage: pages(), ExportTranscript: () => '/home/dev/Harbour.md' });
    render(Transcript, { props: { id: 'sess-1' } });
    await flush();
    expect(w.bound.TranscriptPage).toHaveBeenCalledWith('sess-1', 0, 50);
    expect(screen.getAllByTestId('transcript-message')).toHaveLength(50);
    expect(document.body.textContent).toContain('1 unreadable line was skipped.');

    const tool = screen.getAllByTestId('transcript-message')[5];
    expect(tool.dataset.role).toBe('tool');
    expect(tool.textContent).toContain('echo hello-from-shell');
    expect(tool.textContent).toContain('hello-from-shell');
    const md = screen.getAllByTestId('transcript-message')[7];
    expect(md.querySelector('strong')?.textContent).toBe('bold');
    expect(md.querySelector('img')?.getAttribute('onerror')).toBeFalsy();
    expect((window as unknown as { __xss?: unknown }).__xss).toBeUndefined();

    await fireEvent.click(screen.getByTestId('transcript-more'));
    await flush();
    expect(w.bound.TranscriptPage).toHaveBeenLastCalledWith('sess-1', 50, 50);
    expect(screen.getAllByTestId('transcript-message')).toHaveLength(60);
    expect(screen.queryByTestId('transcript-more')).toBeNull();

    await fireEvent.click(screen.getByTestId('export-transcript'));
    await flush();
    expect(document.body.textContent).toContain('Saved to /home/dev/Harbour.md');
  });

  it('says nothing when the user cancels the save dialog and shows a load error', async () => {
    let fail = false;
    installWails({ TranscriptPage: (id: string, o: number, l: number) => (fail ? Promise.reject('rollout gone') : pages()(id, o, l)), ExportTranscript: () => '' });
    render(Transcript, { props: { id: 'sess-2' } });
    await flush();
    await fireEvent.click(screen.getByTestId('export-transcript'));
    await flush();
    expect(document.body.textContent).not.toContain('Saved to');
    fail = true;
    await fireEvent.click(screen.getByTestId('transcript-more'));
    await flush();
    expect(screen.getByTestId('error-box').textContent).toContain('The transcript could not be read');
    expect(screen.getByTestId('error-box').textContent).toContain('rollout gone');
    expect(screen.getAllByTestId('transcript-message')).toHaveLength(50);
    // Retry asks for the same page again.
    fail = false;
    await fireEvent.click(screen.getByTestId('retry'));
    await flush();
    expect(screen.queryByTestId('error-box')).toBeNull();
    expect(screen.getAllByTestId('transcript-message')).toHaveLength(60);
  });

  it('opens at a search hit beyond the first page: loads up to it, scrolls to it and marks it', async () => {
    const scrolled: string[] = [];
    const proto = HTMLElement.prototype as unknown as { scrollIntoView?: () => void };
    const orig = proto.scrollIntoView;
    proto.scrollIntoView = function (this: HTMLElement) {
      scrolled.push(this.dataset.index ?? '');
    };
    try {
      const w = installWails({ TranscriptPage: pages() });
      render(Transcript, { props: { id: 'sess-1', at: 55 } });
      for (let i = 0; i < 5; i++) await flush();
      expect(w.bound.TranscriptPage).toHaveBeenCalledWith('sess-1', 50, 50);
      const hit = document.querySelector('[data-index="55"]')!;
      expect(hit.classList.contains('hit')).toBe(true);
      expect(hit.textContent).toContain('message 55');
      expect(scrolled).toEqual(['55']);
    } finally {
      proto.scrollIntoView = orig;
    }
  });

  it('shows a stopped turn and a compaction as one line each', async () => {
    const withNotices: TranscriptMessage[] = [
      { role: 'user', time: '', text: 'make it purple' },
      { role: 'notice', time: '', notice: 'stopped', text: 'Stopped by you' },
      { role: 'user', time: '', text: 'no, green' },
      { role: 'assistant', time: '', text: 'Green it is.' },
      { role: 'notice', time: '', notice: 'compacted', text: 'Conversation compacted' },
    ];
    installWails({ TranscriptPage: (id: string) => ({ id, title: '', cwd: '', messages: withNotices, offset: 0, nextOffset: 5, done: true }) });
    render(Transcript, { props: { id: 'sess-2' } });
    await flush();
    const notices = screen.getAllByTestId('transcript-notice');
    expect(notices.map((n) => n.textContent?.trim())).toEqual(['Stopped by you', 'Conversation compacted']);
    expect(screen.getAllByTestId('transcript-message').map((m) => m.dataset.role)).toEqual(['user', 'user', 'assistant']);
  });

  it('says a session too large to show whole ends early, and counts skipped lines once', async () => {
    // The Go side cuts a compression bomb at its ceiling: the page that
    // reaches it is done and truncated; skipped counts up to a page's end.
    const w = installWails({
      TranscriptPage: (id: string, offset: number, limit: number) => ({
        ...pages()(id, offset, limit),
        messages: msgs.slice(offset, Math.min(offset + limit, 55)),
        nextOffset: Math.min(offset + limit, 55),
        done: offset + limit >= 55,
        truncated: offset + limit >= 55,
        skipped: 2,
      }),
    });
    render(Transcript, { props: { id: 'sess-3' } });
    await flush();
    expect(screen.queryByTestId('transcript-truncated')).toBeNull();
    await fireEvent.click(screen.getByTestId('transcript-more'));
    await flush();
    expect(screen.getAllByTestId('transcript-message')).toHaveLength(55);
    expect(screen.getByTestId('transcript-truncated').textContent).toBe('Too large: showing the first 55 messages.');
    expect(screen.queryByTestId('transcript-more')).toBeNull();
    expect(document.body.textContent).toContain('2 unreadable lines were skipped.');
    expect(w.bound.TranscriptPage).toHaveBeenCalledTimes(2);
  });
});

describe("the app's note in a transcript", () => {
  it("shows a prompt's hand-edit note as the app's, apart from the user's words", async () => {
    const page = {
      id: 's2', title: 't', cwd: '/w', offset: 0, nextOffset: 1, done: true, skipped: 0,
      messages: [{ role: 'user', time: '', text: 'Make it warmer', note: 'These colours are LOCKED by the user:\n- ui.accent = #3355ff' }],
    };
    installWails({ TranscriptPage: () => page });
    render(Transcript, { props: { id: 's2' } });
    await flush();
    const m = screen.getByTestId('transcript-message');
    expect(m.querySelector('.plain')!.textContent).toBe('Make it warmer');
    expect(screen.getByTestId('transcript-app-note').textContent).toContain('Note from the app');
    expect(screen.getByTestId('transcript-app-note').textContent).toContain('ui.accent = #3355ff');
  });
});
