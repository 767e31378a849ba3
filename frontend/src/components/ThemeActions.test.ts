import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import ThemeActions from './ThemeActions.svelte';
import { flush, installWails } from '../test/wails';

const plan = {
  target: 'kitty',
  theme: 'Harbour Night',
  files: [
    { path: '/home/dev/.config/kitty/themes/harbour-night.conf', exists: true },
    { path: '/home/dev/.config/kitty/current-theme.conf', exists: false },
  ],
  note: 'Run "kitty +kitten themes" to switch.',
  token: 'tok-kitty',
};

// What Go's ApplyTargets answers on Linux.
const linux = ['vscode', 'zed', 'alacritty', 'kitty', 'ghostty'].map((id) => ({ id, name: id, format: id }));
const targets = { ApplyTargets: () => linux };

describe('ThemeActions', () => {
  it('Apply shows Go’s plan, asks for confirmation, then reports installed and backup paths', async () => {
    const w = installWails({
      ...targets,
      PlanApply: () => plan,
      ApplyTheme: () => ({ installed: [plan.files[0].path], backups: [plan.files[0].path + '.bak-20261202'], note: plan.note }),
    });
    render(ThemeActions, { props: { workspaceId: 'ws1' } });
    await fireEvent.click(screen.getByTestId('apply-menu'));
    await fireEvent.click(screen.getByTestId('apply-target-kitty'));
    await flush();
    expect(w.bound.PlanApply).toHaveBeenCalledWith('ws1', 'kitty');
    expect(w.bound.ApplyTheme).not.toHaveBeenCalled();
    const dialog = screen.getByTestId('confirm-dialog');
    expect(dialog.textContent).toContain('harbour-night.conf');
    expect(screen.getByTestId('apply-plan').querySelector('[data-exists=true]')?.textContent).toContain('replaced (backed up)');
    expect(document.activeElement).toBe(screen.getByTestId('confirm-cancel'));

    await fireEvent.click(screen.getByTestId('confirm-ok'));
    await flush();
    expect(w.bound.ApplyTheme).toHaveBeenCalledWith('ws1', 'kitty', 'tok-kitty', []);
    expect(screen.getAllByTestId('installed-path').map((e) => e.textContent)).toEqual([plan.files[0].path]);
    expect(screen.getAllByTestId('backup-path').map((e) => e.textContent)).toEqual([plan.files[0].path + '.bak-20261202']);
    // The next step in plain words of the UI's language, with the plan's facts.
    expect(screen.getByTestId('apply-note').textContent).toBe(
      'Next: run kitten themes and choose “Harbour Night” in the User category, or add include themes/harbour-night.conf to kitty.conf.',
    );
  });

  it('the plan names every file, what is left alone, where backups go and the exact steps; Undo apply puts back what was there', async () => {
    const nvim = {
      target: 'neovim',
      theme: 'Harbour Night',
      backups: '/home/dev/.local/share/cdxtheme/applied/neovim',
      files: [
        { path: '/home/dev/.config/nvim/colors/harbour-night.lua', exists: true, same: false },
        { path: '/home/dev/.config/nvim/colors/other.lua', exists: true, same: true },
      ],
      steps: [
        { kind: 'command', text: ':colorscheme harbour-night' },
        { kind: 'line', file: '/home/dev/.config/nvim/init.lua', text: 'vim.cmd.colorscheme("harbour-night")' },
      ],
      note: '',
    };
    const w = installWails({
      ApplyTargets: () => [{ id: 'neovim', name: 'Neovim', format: 'neovim' }],
      UndoableApplies: () => [],
      PlanApply: () => nvim,
      ApplyTheme: () => ({ installed: [nvim.files[0].path], unchanged: [nvim.files[1].path], backups: [nvim.backups + '/1/0-harbour-night.lua'], steps: nvim.steps, undo: true }),
      UndoApply: () => ({ target: 'neovim', theme: 'Harbour Night', restored: [nvim.files[0].path], removed: [] }),
    });
    render(ThemeActions, { props: { workspaceId: 'ws1' } });
    await flush();
    await fireEvent.click(screen.getByTestId('apply-menu'));
    expect(screen.queryByTestId('undo-apply-neovim')).toBeNull();
    await fireEvent.click(screen.getByTestId('apply-target-neovim'));
    await flush();
    const planList = screen.getByTestId('apply-plan');
    expect(planList.querySelector('[data-same=true]')?.textContent).toContain('holds this theme already (left alone)');
    expect(planList.querySelector('[data-same=false]')?.textContent).toContain('replaced (backed up)');
    expect(screen.getByTestId('apply-plan-backups').textContent).toContain(nvim.backups);
    const planSteps = screen.getByTestId('apply-plan-steps');
    expect(planSteps.textContent).toContain('Run:');
    expect(planSteps.textContent).toContain(':colorscheme harbour-night');
    expect(planSteps.textContent).toContain('Add to /home/dev/.config/nvim/init.lua:');
    expect(planSteps.textContent).toContain('vim.cmd.colorscheme("harbour-night")');

    await fireEvent.click(screen.getByTestId('confirm-ok'));
    await flush();
    expect(screen.getAllByTestId('unchanged-path').map((e) => e.textContent)).toEqual([nvim.files[1].path]);
    expect(screen.getByTestId('apply-steps').textContent).toContain('vim.cmd.colorscheme("harbour-night")');
    await fireEvent.click(screen.getByTestId('undo-apply'));
    await flush();
    expect(w.bound.UndoApply).toHaveBeenCalledWith('neovim');
    expect(screen.getByTestId('theme-result').textContent).toContain('Undid the last apply to Neovim.');
    expect(screen.getAllByTestId('restored-path').map((e) => e.textContent)).toEqual([nvim.files[0].path]);
    expect(screen.queryByTestId('undo-apply')).toBeNull();
  });

  it('each setting says what is in the file now; Apply changes only the ones the user ticked', async () => {
    const cfg = '/home/dev/.config/helix/config.toml';
    const helix = {
      target: 'helix',
      theme: 'Harbour Night',
      backups: '/home/dev/.local/share/cdxtheme/applied/helix',
      files: [{ path: '/home/dev/.config/helix/themes/harbour-night.toml', exists: false, same: false }],
      steps: [
        { kind: 'command', text: ':theme harbour-night' },
        { kind: 'line', file: cfg, text: 'theme = "harbour-night"', state: 'change', old: 'theme = "onedark"', new: 'theme = "harbour-night"', edit: true },
        { kind: 'line', file: '/home/dev/.config/bat/config', text: '--theme="harbour-night"', state: 'create', new: '--theme="harbour-night"', edit: true },
        { kind: 'line', file: '/home/dev/.gitconfig', text: '[delta]\n\tsyntax-theme = harbour-night', state: 'manual', reason: '/home/dev/.gitconfig is a symbolic link; Apply does not change the file it points to' },
        { kind: 'line', file: '/home/dev/.config/ghostty/config', text: 'theme = harbour-night', state: 'set', old: 'theme = harbour-night', new: 'theme = harbour-night' },
      ],
      note: '',
      token: 'tok-helix',
    };
    const w = installWails({
      ApplyTargets: () => [{ id: 'helix', name: 'Helix', format: 'helix' }],
      UndoableApplies: () => [],
      PlanApply: () => helix,
      ApplyTheme: (_ws: string, _t: string, _tok: string, settings: number[]) => ({
        installed: [helix.files[0].path, cfg],
        steps: helix.steps.map((st, i) => (settings.includes(i) ? { ...st, state: 'changed', edit: false } : st)),
        undo: true,
      }),
    });
    render(ThemeActions, { props: { workspaceId: 'ws1' } });
    await flush();
    await fireEvent.click(screen.getByTestId('apply-menu'));
    await fireEvent.click(screen.getByTestId('apply-target-helix'));
    await flush();
    const items = Array.from(screen.getByTestId('apply-plan-steps').querySelectorAll('li'));
    const [, change, create, manual, set] = items;
    expect(change.textContent).toContain(`Change in ${cfg}:`);
    expect(change.querySelector('pre.old')?.textContent).toBe('theme = "onedark"');
    expect(change.querySelector('pre.new')?.textContent).toBe('theme = "harbour-night"');
    // The user's own file is changed only when they tick it, and the dialog says what that means.
    const tick = change.querySelector<HTMLInputElement>('[data-testid=step-change]')!;
    expect(tick.checked).toBe(false);
    expect(document.getElementById(tick.getAttribute('aria-describedby')!)?.textContent).toContain('keeps a copy of the file');
    expect(change.textContent).toContain('Change it for me');
    expect(change.textContent).toContain('Undo apply puts it back exactly');
    expect(create.textContent).toContain('Create /home/dev/.config/bat/config with:');
    expect(create.querySelector<HTMLInputElement>('[data-testid=step-change]')!.checked).toBe(true);
    expect(manual.textContent).toContain('Add to /home/dev/.gitconfig yourself:');
    expect(manual.querySelector('[data-testid=step-reason]')?.textContent).toContain('symbolic link');
    expect(manual.querySelector('[data-testid=step-change]')).toBeNull();
    expect(set.textContent).toContain('Already set in /home/dev/.config/ghostty/config:');
    expect(set.querySelector('[data-testid=step-change]')).toBeNull();

    await fireEvent.click(tick);
    await fireEvent.click(create.querySelector('[data-testid=step-change]')!);
    await fireEvent.click(screen.getByTestId('confirm-ok'));
    await flush();
    expect(w.bound.ApplyTheme).toHaveBeenCalledWith('ws1', 'helix', 'tok-helix', [1]);
    const done = Array.from(screen.getByTestId('apply-steps').querySelectorAll('li'));
    expect(done[1].textContent).toContain(`Changed in ${cfg}:`);
    expect(done[1].querySelector('[data-testid=step-change]')).toBeNull();
    expect(done[2].textContent).toContain('Create /home/dev/.config/bat/config with:');
  });

  it('the Apply menu offers Undo apply for every target Go has a record of, also from an earlier run', async () => {
    const w = installWails({
      ...targets,
      UndoableApplies: () => ['kitty'],
      UndoApply: () => { throw new Error('undo apply to kitty: /home/dev/.config/kitty/themes/x.conf changed since the apply, so it was left alone'); },
    });
    render(ThemeActions, { props: { workspaceId: 'ws1' } });
    await flush();
    await fireEvent.click(screen.getByTestId('apply-menu'));
    await fireEvent.click(screen.getByTestId('undo-apply-kitty'));
    await flush();
    expect(w.bound.UndoApply).toHaveBeenCalledWith('kitty');
    const err = screen.getByTestId('theme-action-error');
    expect(err.textContent).toContain('Could not undo the apply to kitty');
    expect(err.textContent).toContain('changed since the apply');
  });

  it('cancelling the confirmation applies nothing; there is no CSS install target', async () => {
    const w = installWails({ ...targets, PlanApply: () => plan, ApplyTheme: () => ({ installed: [], backups: [] }) });
    render(ThemeActions, { props: { workspaceId: 'ws1' } });
    await fireEvent.click(screen.getByTestId('apply-menu'));
    expect(screen.queryByTestId('apply-target-css')).toBeNull();
    await fireEvent.click(screen.getByTestId('apply-target-kitty'));
    await flush();
    await fireEvent.keyDown(screen.getByTestId('confirm-dialog'), { key: 'Escape' });
    expect(screen.queryByTestId('confirm-dialog')).toBeNull();
    expect(w.bound.ApplyTheme).not.toHaveBeenCalled();
  });

  it('lists only the programs Go offers on this system', async () => {
    installWails(targets);
    render(ThemeActions, { props: { workspaceId: 'ws1' } });
    await flush();
    await fireEvent.click(screen.getByTestId('apply-menu'));
    const items = screen.getAllByRole('menuitem').map((b) => b.dataset.testid);
    expect(items).toEqual(linux.map((x) => 'apply-target-' + x.id));
    expect(screen.queryByTestId('apply-target-windows-terminal')).toBeNull();
    expect(screen.queryByTestId('apply-target-iterm2')).toBeNull();
  });

  it('says in plain words what failed, with Go’s reason and a Retry that plans again', async () => {
    let calls = 0;
    const w = installWails({
      ...targets,
      PlanApply: () => (++calls === 1 ? Promise.reject('install into Kitty: find home directory: $HOME is not defined') : plan),
    });
    render(ThemeActions, { props: { workspaceId: 'ws1' } });
    await flush();
    await fireEvent.click(screen.getByTestId('apply-menu'));
    await fireEvent.click(screen.getByTestId('apply-target-kitty'));
    await flush();
    const box = screen.getByTestId('theme-action-error');
    expect(box.querySelector('strong')!.textContent).toBe('Could not apply the theme to kitty');
    expect(box.textContent).toContain('$HOME is not defined');
    await fireEvent.click(screen.getByTestId('theme-action-retry'));
    await flush();
    expect(w.bound.PlanApply).toHaveBeenCalledTimes(2);
    expect(screen.queryByTestId('theme-action-error')).toBeNull();
    expect(screen.getByTestId('confirm-dialog')).toBeTruthy();
  });

  it.each(['vscode', 'css', 'all'])('Export %s reports the folder written', async (format) => {
    const w = installWails({ ...targets, ExportTheme: (_ws: string, f: string) => `/data/ws1/export/${f}` });
    render(ThemeActions, { props: { workspaceId: 'ws1' } });
    await fireEvent.click(screen.getByTestId('export-menu'));
    await fireEvent.click(screen.getByTestId(`export-format-${format}`));
    await flush();
    expect(w.bound.ExportTheme).toHaveBeenCalledWith('ws1', format);
    expect(screen.getByTestId('theme-result').textContent).toContain(`/data/ws1/export/${format}`);
  });
});

describe('ThemeActions menus', () => {
  it('focus the first item, move with arrows, close with Esc back on the button or by clicking elsewhere', async () => {
    installWails(targets);
    render(ThemeActions, { props: { workspaceId: 'ws1' } });
    const opener = screen.getByTestId('export-menu');
    await fireEvent.click(opener);
    await flush();
    expect(document.activeElement).toBe(screen.getByTestId('export-format-vscode'));
    await fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByTestId('export-format-zed'));
    await fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    await fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(screen.getByTestId('export-format-all'));
    await fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByTestId('export-format-vscode')).toBeNull();
    expect(document.activeElement).toBe(opener);
    await fireEvent.click(opener);
    await fireEvent.click(document.body);
    expect(screen.queryByTestId('export-format-vscode')).toBeNull();
  });

  it('a broken theme.json disables Export and Apply and offers the fix', async () => {
    installWails({ ...targets });
    const onfix = vi.fn();
    render(ThemeActions, { props: { workspaceId: 'ws1', broken: 'ui.text: required', onfix } });
    expect((screen.getByTestId('export-menu') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('apply-menu') as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.click(screen.getByTestId('fix-broken'));
    expect(onfix).toHaveBeenCalledWith('ui.text: required');
  });

  it('after an export, Open folder opens the folder it wrote', async () => {
    const w = installWails({ ...targets, ExportTheme: () => '/ws/export/kitty', OpenPath: () => undefined });
    render(ThemeActions, { props: { workspaceId: 'ws1' } });
    expect(screen.queryByTestId('theme-broken')).toBeNull();
    await fireEvent.click(screen.getByTestId('export-menu'));
    await fireEvent.click(screen.getByTestId('export-format-kitty'));
    await flush();
    await fireEvent.click(screen.getByTestId('open-export'));
    await flush();
    expect(w.bound.OpenPath).toHaveBeenCalledWith('ws1', '/ws/export/kitty');
  });
  it('a plan naming a file twice (a light/dark variant in VS Code) still opens, applies, and leaves Export and Apply usable', async () => {
    const dir = '/home/dev/.vscode/extensions/cdxtheme.harbour-night-1.0.0/themes/';
    const dup = {
      target: 'vscode',
      theme: 'Harbour Night',
      files: [
        { path: dir + 'harbour-night-color-theme.json', exists: false, same: false },
        { path: dir + 'harbour-night-light-color-theme.json', exists: false, same: false },
        { path: dir + 'harbour-night-light-color-theme.json', exists: false, same: false },
      ],
      note: '',
      token: 'tok-vscode',
    };
    const w = installWails({
      ...targets,
      UndoableApplies: () => [],
      PlanApply: () => dup,
      ApplyTheme: () => ({ installed: dup.files.map((f) => f.path), undo: true }),
    });
    render(ThemeActions, { props: { workspaceId: 'ws1' } });
    await flush();
    await fireEvent.click(screen.getByTestId('apply-menu'));
    await fireEvent.click(screen.getByTestId('apply-target-vscode'));
    await flush();
    expect(screen.getByTestId('confirm-dialog')).toBeTruthy();
    expect(screen.getByTestId('apply-plan').querySelectorAll('li')).toHaveLength(3);
    await fireEvent.click(screen.getByTestId('confirm-ok'));
    await flush();
    expect(w.bound.ApplyTheme).toHaveBeenCalledWith('ws1', 'vscode', 'tok-vscode', []);
    expect(screen.getAllByTestId('installed-path')).toHaveLength(3);
    expect((screen.getByTestId('apply-menu') as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByTestId('export-menu') as HTMLButtonElement).disabled).toBe(false);
  });

  it('when Go refuses the confirmed plan because it changed, the new plan is shown to confirm, never applied unseen', async () => {
    const mine = { ...plan, theme: 'Gruvbox', files: [{ path: '/home/dev/.config/kitty/themes/gruvbox.conf', exists: true, same: false }], token: 'tok-gruvbox' };
    let planned = 0;
    const w = installWails({
      ...targets,
      UndoableApplies: () => [],
      PlanApply: () => (planned++ === 0 ? plan : mine),
      ApplyTheme: (_ws: string, _t: string, token: string) => {
        if (token !== 'tok-gruvbox') throw new Error('install into kitty: the install plan changed since it was shown; nothing was written');
        return { installed: [mine.files[0].path], backups: ['/data/applied/kitty/1/0-gruvbox.conf'] };
      },
    });
    render(ThemeActions, { props: { workspaceId: 'ws1' } });
    await flush();
    await fireEvent.click(screen.getByTestId('apply-menu'));
    await fireEvent.click(screen.getByTestId('apply-target-kitty'));
    await flush();
    await fireEvent.click(screen.getByTestId('confirm-ok'));
    await flush();
    expect(w.bound.ApplyTheme).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('installed-path')).toBeNull();
    expect(screen.getByTestId('apply-plan-changed').textContent).toContain('Nothing was written');
    expect(screen.getByTestId('apply-plan').textContent).toContain('gruvbox.conf');
    expect(screen.getByTestId('apply-plan').querySelector('[data-exists=true]')?.textContent).toContain('replaced (backed up)');
    await fireEvent.click(screen.getByTestId('confirm-ok'));
    await flush();
    expect(w.bound.ApplyTheme).toHaveBeenLastCalledWith('ws1', 'kitty', 'tok-gruvbox', []);
    expect(screen.getAllByTestId('installed-path').map((e) => e.textContent)).toEqual([mine.files[0].path]);
  });
});

describe('ThemeActions with targets defined as data', () => {
  it('Export lists every format Go has, named by Go when the locale has no name, and a template folder renders through Go', async () => {
    const w = installWails({
      ...targets,
      UndoableApplies: () => [],
      ExportFormats: () => [
        { id: 'kitty', name: 'Kitty', files: ['{slug}.conf'] },
        { id: 'vim', name: 'Vim (classic Vimscript)', files: ['colors/{slug}.vim'] },
      ],
      TemplateFolders: () => [
        { dir: '/home/dev/tinted-fzf', name: 'tinted-fzf', templates: ['base16-default'] },
        { dir: '/home/dev/broken', name: 'broken', templates: [], error: 'no templates/config.yaml' },
      ],
      ExportTheme: () => '/ws/export/vim',
      ExportTemplate: () => '/ws/export/template-tinted-fzf',
    });
    render(ThemeActions, { props: { workspaceId: 'ws1' } });
    await flush();
    await fireEvent.click(screen.getByTestId('export-menu'));
    expect(screen.getByTestId('export-format-kitty').textContent).toBe('kitty'); // the locale's name
    expect(screen.getByTestId('export-format-vim').textContent).toBe('Vim (classic Vimscript)');
    const tpl = screen.getAllByTestId('export-template');
    expect(tpl.map((b) => b.textContent)).toEqual(['Template folder tinted-fzf', 'Template folder broken']);
    expect((tpl[1] as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.click(tpl[0]);
    await flush();
    expect(w.bound.ExportTemplate).toHaveBeenCalledWith('ws1', '/home/dev/tinted-fzf');
    expect(screen.getByTestId('theme-result').textContent).toContain('/ws/export/template-tinted-fzf');
    await fireEvent.click(screen.getByTestId('export-menu'));
    await fireEvent.click(screen.getByTestId('export-format-vim'));
    await flush();
    expect(w.bound.ExportTheme).toHaveBeenCalledWith('ws1', 'vim');
  });

  it('lists the programs this build was applied to with their live switch, off until turned on, and shows what each change did', async () => {
    let on = false;
    const w = installWails({
      ...targets,
      UndoableApplies: () => ['tmux', 'vscode'],
      LivePrograms: () => [
        { target: 'tmux', mode: 'told', note: 'Every running tmux server sources the theme file again.', on },
        { target: 'vscode', mode: 'manual', note: 'VS Code reads an installed theme only when its window loads.', on: false },
      ],
      SetLive: (_ws: string, _target: string, v: boolean) => {
        on = v;
      },
    });
    render(ThemeActions, { props: { workspaceId: 'ws1' } });
    await flush();
    expect(w.bound.LivePrograms).toHaveBeenCalledWith('ws1');
    const toggle = screen.getByTestId('live-toggle-tmux') as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    expect(screen.getByTestId('live-tmux').textContent).toContain('sources the theme file again');
    // A program that cannot follow while it runs says so.
    expect(screen.getByTestId('live-mode-vscode').textContent).toBe('only after a reload');
    expect(screen.getByTestId('live-mode-tmux').textContent).toBe('told at once');

    await fireEvent.click(toggle);
    await flush();
    expect(w.bound.SetLive).toHaveBeenCalledWith('ws1', 'tmux', true);
    expect((screen.getByTestId('live-toggle-tmux') as HTMLInputElement).checked).toBe(true);
    // Each change's outcome arrives as Go reports it; another build's is not this one's.
    const report = { build: 'ws1', target: 'tmux', written: ['/t.conf'], reached: 2, kept: [], missing: [], at: '', tookNs: 84e6 };
    w.emit('live', { ...report, build: 'ws2', reached: 9 });
    w.emit('live', report);
    await flush();
    expect(screen.getByTestId('live-last-tmux').textContent).toBe('Last change reached 2 running programs in 84 ms.');
    w.emit('live', { ...report, written: [], missing: ['/other.conf'] });
    await flush();
    expect(screen.getByTestId('live-last-tmux').textContent).toContain('apply it again');
  });

  it('Publish asks for the packages’ metadata, shows Go’s refusal on the field it names, and says which version went out and which comes next', async () => {
    const saved = { publisher: 'cdxtheme', version: '0.0.1', repository: '', license: 'MIT', description: '' };
    const w = installWails({
      ...targets,
      ExportFormats: () => [
        { id: 'kitty', name: 'Kitty', files: [] },
        { id: 'vsix', name: 'VS Code extension package (.vsix)', files: [] },
        { id: 'zed-extension', name: 'Zed extension', files: [] },
      ],
      TemplateFolders: () => [],
      UndoableApplies: () => [],
      PublishMeta: () => saved,
      Publish: (_id: string, m: typeof saved) => {
        if (m.repository.startsWith('http:')) throw 'repository: "http://x" must start with https://';
        return { dir: '/ws/export', version: m.version, next: { ...m, version: '0.0.2' } };
      },
    });
    render(ThemeActions, { props: { workspaceId: 'ws1' } });
    await flush();
    await fireEvent.click(screen.getByTestId('export-menu'));
    // The packages are published, not exported bare with the app's 1.0.0.
    expect(screen.queryByTestId('export-format-vsix')).toBeNull();
    expect(screen.getByTestId('export-format-kitty')).toBeTruthy();
    await fireEvent.click(screen.getByTestId('export-publish'));
    await flush();
    const publisher = screen.getByTestId('publish-publisher') as HTMLInputElement;
    expect(publisher.value).toBe('cdxtheme');
    expect(screen.getByTestId('publish-ok').textContent).toBe('Publish 0.0.1');
    await fireEvent.input(publisher, { target: { value: 'harbour-studio' } });
    await fireEvent.input(screen.getByTestId('publish-repository'), { target: { value: 'http://x' } });
    await fireEvent.click(screen.getByTestId('publish-ok'));
    await flush();
    expect(screen.getByTestId('publish-error').textContent).toContain('must start with https://');
    expect(screen.getByTestId('publish-repository').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('publish-publisher').getAttribute('aria-invalid')).toBe('false');
    await fireEvent.input(screen.getByTestId('publish-repository'), { target: { value: 'https://github.com/harbour/night' } });
    await fireEvent.click(screen.getByTestId('publish-ok'));
    await flush();
    expect(w.bound.Publish).toHaveBeenLastCalledWith('ws1', { ...saved, publisher: 'harbour-studio', repository: 'https://github.com/harbour/night' });
    expect(screen.queryByTestId('publish-dialog')).toBeNull();
    expect(screen.getByTestId('theme-result').textContent).toContain('Published version 0.0.1');
    expect(screen.getByTestId('theme-result').textContent).toContain('The next publish will be 0.0.2.');
  });

  it('Publish’s metadata can be saved without publishing: Go checks it and the dialog stays open on what it kept', async () => {
    const saved = { publisher: 'cdxtheme', version: '0.0.1', repository: '', license: 'MIT', description: '' };
    const w = installWails({
      ...targets,
      ExportFormats: () => [{ id: 'vsix', name: 'VS Code extension package (.vsix)', files: [] }],
      TemplateFolders: () => [],
      UndoableApplies: () => [],
      PublishMeta: () => saved,
      SetPublishMeta: (_id: string, m: typeof saved) => {
        if (!/^[a-z0-9][a-z0-9-]*$/.test(m.publisher)) throw `publisher: "${m.publisher}" is not a publisher id`;
        return { ...m, description: m.description.trim() };
      },
    });
    render(ThemeActions, { props: { workspaceId: 'ws1' } });
    await flush();
    await fireEvent.click(screen.getByTestId('export-menu'));
    await fireEvent.click(screen.getByTestId('export-publish'));
    await flush();
    await fireEvent.input(screen.getByTestId('publish-publisher'), { target: { value: 'Harbour Studio' } });
    await fireEvent.click(screen.getByTestId('publish-save'));
    await flush();
    expect(screen.getByTestId('publish-publisher').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('publish-saved')).toBeNull();
    await fireEvent.input(screen.getByTestId('publish-publisher'), { target: { value: 'harbour-studio' } });
    await fireEvent.input(screen.getByTestId('publish-description'), { target: { value: '  Night harbour  ' } });
    await fireEvent.click(screen.getByTestId('publish-save'));
    await flush();
    expect(w.bound.SetPublishMeta).toHaveBeenLastCalledWith('ws1', { ...saved, publisher: 'harbour-studio', description: '  Night harbour  ' });
    expect(w.bound.Publish).not.toHaveBeenCalled();
    expect(screen.getByTestId('publish-saved').textContent).toBe('Saved. The next publish uses these.');
    expect((screen.getByTestId('publish-description') as HTMLInputElement).value).toBe('Night harbour');
    expect(screen.getByTestId('publish-dialog')).toBeTruthy();
  });
});
