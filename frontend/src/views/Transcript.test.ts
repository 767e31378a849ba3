import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import Transcript from './Transcript.svelte';
import { flush, installWails } from '../test/wails';
import type { TranscriptMessage } from '../lib/types';

const msgs: TranscriptMessage[] = Array.from({ length: 60 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', text: `message ${i}`, time: '2026-12-01T10:00:00Z' }));
msgs[5] = { role: 'tool', text: '', tool: { name: 'exec_command', command: 'echo hello-from-shell', exitCode: 0, output: 'hello-from-shell\n' } };
msgs[7] = { role: 'assistant', text: 'See <img src=x onerror="window.__xss=1"> **bold**' };

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
    expect(w.App.TranscriptPage).toHaveBeenCalledWith('sess-1', 0, 50);
    expect(screen.getAllByTestId('transcript-message')).toHaveLength(50);
    expect(document.body.textContent).toContain('1 unreadable line(s) were skipped.');

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
    expect(w.App.TranscriptPage).toHaveBeenLastCalledWith('sess-1', 50, 50);
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
});
