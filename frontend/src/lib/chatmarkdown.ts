// A chat as Markdown, for the export of chats the agent keeps no rollout of.
import type { ChatState } from './chatReducer';

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}\n${text.replace(/\n$/, '')}\n${f}`;
}

/** labels: the headings for the user, the agent and tool calls, in the UI's language. */
export function chatMarkdown(s: ChatState, title: string, labels: { user: string; agent: string; tool: string }): string {
  const out: string[] = [`# ${title.replace(/\n/g, ' ')}`];
  for (const it of s.items) {
    switch (it.kind) {
      case 'user':
        out.push(`## ${labels.user}`, it.text);
        break;
      case 'assistant':
        out.push(`## ${labels.agent}`, it.text);
        break;
      case 'tool': {
        const tool = s.tools[it.key];
        if (!tool) break;
        out.push(`### ${labels.tool}: ${tool.title || tool.kind}`);
        if (tool.terminal) out.push(fence(tool.terminal));
        for (const c of tool.content) if (c.type === 'diff' && c.path) out.push(fence(`${c.path}\n${c.newText ?? ''}`));
        break;
      }
      case 'error':
      case 'warning':
        out.push(`> ${it.text.replace(/\n/g, '\n> ')}`);
        break;
      default:
        break;
    }
  }
  return out.join('\n\n') + '\n';
}
