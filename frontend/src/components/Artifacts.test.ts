import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import Artifacts from './Artifacts.svelte';
import { flush, installWails } from '../test/wails';
import type { Artifact } from '../lib/types';

const inside: Artifact = { uri: 'file:///ws/swatch.png', name: 'swatch.png', source: 'edit', inside: true, path: '/ws/swatch.png', preview: 'data:image/png;base64,iVBORw==' };
const outside: Artifact = { uri: 'file:///etc/passwd', name: 'passwd', source: 'link', inside: false, problem: 'outside the workspace; not opened' };

describe('Artifacts', () => {
  it('lists what Go reports, with a preview, and fetches again on an event of its workspace only', async () => {
    let now: Artifact[] = [inside];
    const w = installWails({ Artifacts: () => now });
    render(Artifacts, { props: { workspaceId: 'ws1' } });
    await flush();
    expect(w.bound.Artifacts).toHaveBeenCalledWith('ws1');
    expect(screen.getAllByTestId('artifact').map((e) => e.dataset.name)).toEqual(['swatch.png']);
    expect((screen.getByRole('img') as HTMLImageElement).src).toBe(inside.preview);
    w.emit('artifacts', { workspaceId: 'other', artifacts: [] });
    expect(w.bound.Artifacts).toHaveBeenCalledTimes(1);
    now = [inside, outside];
    w.emit('artifacts', { workspaceId: 'ws1', artifacts: [inside, outside] });
    await flush();
    const items = screen.getAllByTestId('artifact');
    expect(items.map((e) => [e.dataset.name, e.dataset.inside])).toEqual([['swatch.png', 'true'], ['passwd', 'false']]);
    expect(items[1].textContent).toContain('outside the workspace');
  });

  it('shows the answer to the latest fetch, whatever order the answers come in', async () => {
    const answers: ((l: Artifact[]) => void)[] = [];
    const w = installWails({ Artifacts: () => new Promise<Artifact[]>((r) => answers.push(r)) });
    render(Artifacts, { props: { workspaceId: 'ws1' } });
    await flush();
    w.emit('artifacts', { workspaceId: 'ws1', artifacts: [inside] });
    w.emit('artifacts', { workspaceId: 'ws1', artifacts: [inside, outside] });
    await flush();
    expect(answers).toHaveLength(3);
    answers[2]([inside, outside]);
    answers[1]([inside]);
    answers[0]([]);
    await flush();
    expect(screen.getAllByTestId('artifact')).toHaveLength(2);
  });

  it('opens through Go and shows its refusal', async () => {
    const w = installWails({
      Artifacts: () => [inside, outside],
      OpenArtifact: (_ws: string, uri: string) => {
        if (uri === outside.uri) throw '/etc/passwd lies outside the workspace, so it is not opened';
      },
    });
    render(Artifacts, { props: { workspaceId: 'ws1' } });
    await flush();
    const [a, b] = screen.getAllByTestId('artifact-open');
    await fireEvent.click(a);
    await flush();
    expect(w.bound.OpenArtifact).toHaveBeenCalledWith('ws1', inside.uri);
    expect(screen.queryByTestId('artifact-error')).toBeNull();
    await fireEvent.click(b);
    await flush();
    expect(screen.getByTestId('artifact-error').textContent).toContain('outside the workspace');
  });
});
