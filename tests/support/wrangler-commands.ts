/**
 * The pinned wrangler's commands and their flags, read from the registry its --help and shell
 * completions are made from: `experimental_getWranglerCommands()`, exported by wrangler 4.151's
 * cli.js (an experimental API; tests/drills/wrangler-help.test.ts compares what it gives with the
 * real `--help` of two commands, and fails when an upgrade changes either). One load of wrangler
 * answers for every documented command, where a `--help` run each costs two seconds of CPU.
 */
import { createRequire } from 'node:module'

export interface WranglerCommand {
  /** e.g. "d1 migrations apply". */
  path: string
  /** Flags its --help lists (hidden ones and positionals left out), with their aliases, without dashes. */
  flags: string[]
  hidden: boolean
}

interface Arg {
  alias?: string | string[]
  hidden?: boolean
}

interface CommandNode {
  definition?: { metadata?: { hidden?: boolean }; args?: Record<string, Arg>; positionalArgs?: string[] }
  subtree: Map<string, CommandNode>
}

const names = (name: string, arg: Arg) => [name, ...[arg.alias ?? []].flat()]

/** Every command wrangler has, and the flags every command takes (its global flags). */
export function wranglerCommands(): { commands: Map<string, WranglerCommand>; globalFlags: string[] } {
  const wrangler = createRequire(import.meta.url)('wrangler') as {
    experimental_getWranglerCommands(): { registry: CommandNode; globalFlags: Record<string, Arg> }
  }
  const { registry, globalFlags } = wrangler.experimental_getWranglerCommands()
  const commands = new Map<string, WranglerCommand>()
  const walk = (node: CommandNode, path: string[], hidden: boolean) => {
    for (const [name, child] of node.subtree) {
      const childPath = [...path, name]
      const childHidden = hidden || child.definition?.metadata?.hidden === true
      const positionals = new Set(child.definition?.positionalArgs ?? [])
      const flags = Object.entries(child.definition?.args ?? {})
        .filter(([name, arg]) => !arg.hidden && !positionals.has(name))
        .flatMap(([flag, arg]) => names(flag, arg))
      commands.set(childPath.join(' '), { path: childPath.join(' '), flags, hidden: childHidden })
      walk(child, childPath, childHidden)
    }
  }
  walk(registry, [], false)
  return {
    commands,
    globalFlags: [
      ...Object.entries(globalFlags)
        .filter(([, arg]) => !arg.hidden)
        .flatMap(([flag, arg]) => names(flag, arg)),
      'help',
      'h',
    ],
  }
}
