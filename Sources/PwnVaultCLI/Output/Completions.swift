import PwnVaultCore

/// Shell completion scripts for bash, zsh and fish, generated from the command specs and the global
/// options, so that completion offers exactly what the argument reader accepts.
enum Completions {
    /// The shells a script can be generated for.
    enum Shell: String, CaseIterable {
        case bash, zsh, fish

        /// Where `make install` puts the script, under `$PREFIX/share`.
        var installPath: String {
            switch self {
            case .bash: return "bash-completion/completions/pwnvault"
            case .zsh: return "zsh/site-functions/_pwnvault"
            case .fish: return "fish/vendor_completions.d/pwnvault.fish"
            }
        }
    }

    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: return bash()
        case .zsh: return zsh()
        case .fish: return fish()
        }
    }

    // MARK: What there is to complete

    /// Options whose value is a file name.
    static func takesPath(_ option: OptionSpec) -> Bool { option.value == "PATH" || option.value == "FILE" }

    /// The fixed choices of an option's value, when it has any.
    static func choices(for option: OptionSpec) -> [String]? {
        switch option.name {
        case "kdf": return KDFParameters.presets.map(\.name)
        case "sort": return BreachSort.allCases.map(\.rawValue)
        case "status": return StatusFilter.allCases.map(\.rawValue)
        case "list": return ["ids", "breaches"]
        default: return nil
        }
    }

    /// What a positional argument completes from. Ids (`#ID`, labels as descriptions) come from the
    /// vault, breach names from the cached catalog, an account's own breaches (for `ack`) from both,
    /// through `pwnvault completions --list`, which never asks for anything.
    enum Source: Equatable {
        case nothing
        case words([String])
        case ids
        case breaches
        /// The breaches of the account named by the command's first argument (never sensitive ones).
        case findings
        case files

        /// The word given to `completions --list`, for the sources asked of pwnvault.
        var listed: String? {
            switch self {
            case .ids: return "ids"
            case .breaches, .findings: return "breaches"
            default: return nil
            }
        }
    }

    /// What the first positional argument of a command completes from, and what the ones after it do.
    static func positionals(for spec: CommandSpec) -> (first: Source, rest: Source) {
        switch spec.name {
        case HelpCommand.spec.name:
            return (.words(Commands.all.map { $0.spec.name } + HelpText.topics.keys.filter { $0 != ManPage.topic }.sorted()), .nothing)
        case CompletionsCommand.spec.name:
            return (.words(Shell.allCases.map(\.rawValue)), .nothing)
        case ConfigCommand.spec.name:
            return (.words(["api-key"]), .nothing)
        case ScheduleCommand.spec.name:
            return (.words(["enable", "disable", "status"]), .nothing)
        case BreachCommand.spec.name:
            return (.breaches, .breaches)
        case AckCommand.spec.name:
            return (.ids, .findings)
        case ImportCommand.spec.name:
            return (.files, .nothing)
        default:
            let ids = spec.positionalHelp.contains { $0.0.contains("#ID") }
            return ids ? (.ids, .ids) : (.nothing, .nothing)
        }
    }

    /// Global options that take their value in the next word: completion skips them (and the value)
    /// to find the command when they come first (`pwnvault --vault ~/v2 list`).
    static var globalValueOptions: [String] { GlobalOptions.all.filter(\.takesValue).map { "--" + $0.name } }

    /// The options a command is offered: its own, then the global ones that matter to it (as in its help).
    static func options(for spec: CommandSpec) -> [OptionSpec] {
        spec.options + HelpText.globalOptions(for: spec)
    }

    /// Options that take the value in the next word, all commands together (for bash's `prev` test).
    private static var valueOptions: [OptionSpec] {
        var seen = Set<String>()
        return (GlobalOptions.all + Commands.all.flatMap { $0.spec.options })
            .filter { $0.takesValue && seen.insert($0.name).inserted }
    }

    // MARK: bash

    private static func bash() -> String {
        let names = Commands.all.map { $0.spec.name }
        let leading = names + ["--help", "--version"] + GlobalOptions.all.filter { $0.name != "help" }.map { "--" + $0.name }
        var byValue: [String: [String]] = [:]   // the completion code -> option names
        for o in valueOptions {
            let code: String
            if takesPath(o) {
                code = "_pwnvault_files"
            } else if let values = choices(for: o) {
                code = "mapfile -t COMPREPLY < <(compgen -W '\(values.joined(separator: " "))' -- \"$cur\")"
            } else {
                code = "COMPREPLY=()"
            }
            byValue[code, default: []].append("--" + o.name)
        }
        var s = ##"""
        # bash completion for pwnvault (generated by 'pwnvault completions bash'; do not edit)
        # Account ids, bare (3) or escaped (\#3) when a # was typed: an unquoted # starts a comment.
        _pwnvault_ids() {
            local typed=${cur//\\/} hash= id
            if [[ $typed == \#* ]]; then hash='\#'; typed=${typed#\#}; fi
            COMPREPLY=()
            while IFS=$'\t' read -r id _; do
                id=${id#\#}
                [[ $id == "$typed"* ]] && COMPREPLY+=("$hash$id")
            done < <("${COMP_WORDS[0]}" completions --list ids 2>/dev/null)
        }
        _pwnvault_files() {
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        }
        _pwnvault() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev= i=1 w
            [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
            case $prev in

        """##
        for (code, options) in byValue.sorted(by: { $0.value[0] < $1.value[0] }) {
            s += "        \(options.joined(separator: "|"))) \(code); return 0 ;;\n"
        }
        s += ##"""
            esac
            # The command: the first word that is not a global option or the value of one, as
            # 'pwnvault --vault ~/v2 list' allows.
            while [ "$i" -lt "$COMP_CWORD" ]; do
                case ${COMP_WORDS[i]} in
                    \##(globalValueOptions.joined(separator: "|"))) i=$((i + 2)) ;;
                    -*) i=$((i + 1)) ;;
                    *) break ;;
                esac
            done
            if [ "$i" -ge "$COMP_CWORD" ]; then
                mapfile -t COMPREPLY < <(compgen -W '\##(leading.joined(separator: " "))' -- "$cur")
                return 0
            fi
            local options= words= first= rest=
            case ${COMP_WORDS[i]} in

        """##
        for command in Commands.all {
            let spec = command.spec
            let forms = options(for: spec).flatMap { o in ["--" + o.name] + (o.short.map { ["-\($0)"] } ?? []) }
            let (first, rest) = positionals(for: spec)
            s += "        \(spec.name)) options='\(forms.joined(separator: " "))'"
            if case let .words(words) = first { s += "; words='\(words.joined(separator: " "))'" }
            if let name = bashName(first) { s += "; first=\(name)" }
            if let name = bashName(rest) { s += "; rest=\(name)" }
            s += " ;;\n"
        }
        s += ##"""
                *) return 0 ;;
            esac
            if [[ $cur == -* ]]; then
                mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
                return 0
            fi
            # Which argument is being completed: the words after the command that are neither options
            # nor their values; the first of them names the account (for ack's breaches).
            local n=0 account= j=$((i + 1))
            while [ "$j" -lt "$COMP_CWORD" ]; do
                w=${COMP_WORDS[j]}
                case $w in
                    --*=*) ;;
                    \##(valueOptions.map { "--" + $0.name }.joined(separator: "|"))) j=$((j + 1)) ;;
                    -?*) ;;
                    *) [ "$n" -eq 0 ] && account=$w; n=$((n + 1)) ;;
                esac
                j=$((j + 1))
            done
            [ "$n" -gt 0 ] && first=$rest
            account=${account//\\/}; account=${account//\'/}; account=${account//\"/}
            case $first in
                ids) _pwnvault_ids ;;
                breaches) mapfile -t COMPREPLY < <(compgen -W "$("${COMP_WORDS[0]}" completions --list breaches 2>/dev/null)" -- "$cur") ;;
                findings) mapfile -t COMPREPLY < <(compgen -W "$("${COMP_WORDS[0]}" completions --list breaches "$account" 2>/dev/null)" -- "$cur") ;;
                files) _pwnvault_files ;;
                words) mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur") ;;
                *) COMPREPLY=() ;;
            esac
            return 0
        }
        complete -F _pwnvault pwnvault

        """##
        return s
    }

    /// The name bash's script gives a source (nil: nothing to complete).
    private static func bashName(_ source: Source) -> String? {
        switch source {
        case .nothing: return nil
        case .words: return "words"
        case .ids: return "ids"
        case .breaches: return "breaches"
        case .findings: return "findings"
        case .files: return "files"
        }
    }

    // MARK: zsh

    private static func zsh() -> String {
        var s = """
        #compdef pwnvault
        # zsh completion for pwnvault (generated by 'pwnvault completions zsh'; do not edit)

        # Account ids with their labels (never the accounts), and breach names: asked of pwnvault, which
        # never prompts (keyring only) and never goes online (the cached catalog).
        _pwnvault_ids() {
          local -a ids
          ids=(${(f)"$($_pwnvault_bin completions --list ids 2>/dev/null | sed -e 's/:/\\\\:/g' -e 's/\t/:/')"})
          _describe -t ids 'account id' ids
        }
        _pwnvault_breaches() {
          local -a names
          names=(${(f)"$($_pwnvault_bin completions --list breaches 2>/dev/null)"})
          compadd -a names
        }
        # The breaches of the account named by the first argument (ack's), sensitive ones left out.
        _pwnvault_findings() {
          local -a names
          names=(${(f)"$($_pwnvault_bin completions --list breaches "${(Q)line[1]}" 2>/dev/null)"})
          compadd -a names
        }

        _pwnvault() {
          local _pwnvault_bin=${words[1]:-pwnvault}
          local -a commands
          commands=(

        """
        for command in Commands.all {
            s += "    " + zshQuoted(command.spec.name + ":" + command.spec.summary) + "\n"
        }
        s += """
          )
          # The command: the first word that is not a global option or the value of one.
          local i=2
          while (( i < CURRENT )); do
            case $words[i] in
              \(globalValueOptions.joined(separator: "|"))) (( i += 2 )) ;;
              -*) (( i++ )) ;;
              *) break ;;
            esac
          done
          if (( CURRENT <= i )); then
            case $words[CURRENT-1] in
              \(globalValueOptions.filter { $0 != "--passphrase-fd" }.joined(separator: "|"))) _files; return ;;
              --passphrase-fd) return ;;
            esac
            if [[ $PREFIX == -* ]]; then
              compadd -- --help --version \(GlobalOptions.all.filter { $0.name != "help" }.map { "--" + $0.name }.joined(separator: " "))
            else
              _describe -t commands 'pwnvault command' commands
            fi
            return
          fi
          local command=$words[i]
          shift $(( i - 1 )) words
          (( CURRENT -= i - 1 ))
          case $command in

        """
        for command in Commands.all {
            let spec = command.spec
            var specs = options(for: spec).map(zshOption)
            if spec.positionals.upperBound > 0 {
                let (first, rest) = positionals(for: spec)
                let name = spec.positionalHelp.first?.0 ?? "argument"
                if spec.positionals.upperBound == 1 || first == rest {
                    let form = spec.positionals.upperBound == 1 ? "1" : "*"
                    specs.append(zshQuoted("\(form):\(zshEscaped(name.lowercased())):\(zshAction(first))"))
                } else {
                    let restName = spec.positionalHelp.dropFirst().first?.0 ?? "argument"
                    specs.append(zshQuoted("1:\(zshEscaped(name.lowercased())):\(zshAction(first))"))
                    specs.append(zshQuoted("*:\(zshEscaped(restName.lowercased())):\(zshAction(rest))"))
                }
            }
            s += "    \(spec.name))\n      _arguments -s \\\n"
            s += specs.map { "        " + $0 }.joined(separator: " \\\n") + " ;;\n"
        }
        s += """
          esac
        }

        _pwnvault "$@"

        """
        return s
    }

    /// What `_arguments` runs to complete one source.
    private static func zshAction(_ source: Source) -> String {
        switch source {
        case .nothing: return " "
        case let .words(words): return "(\(words.joined(separator: " ")))"
        case .ids: return "_pwnvault_ids"
        case .breaches: return "_pwnvault_breaches"
        case .findings: return "_pwnvault_findings"
        case .files: return "_files"
        }
    }

    private static func zshOption(_ o: OptionSpec) -> String {
        let help = "[" + zshEscaped(o.help) + "]"
        var value = ""
        if let placeholder = o.value {
            let action = takesPath(o) ? "_files" : choices(for: o).map { "(\($0.joined(separator: " ")))" } ?? " "
            value = ":" + zshEscaped(placeholder.lowercased()) + ":" + action
        }
        let repeat_ = o.repeatable ? "*" : ""
        let name = "--" + o.name + (o.takesValue ? "=" : "")
        if let short = o.short {
            return "'(-\(short) --\(o.name))'{-\(short),\(name)}" + zshQuoted(help + value)
        }
        return zshQuoted(repeat_ + name + help + value)
    }

    /// Escapes what `_arguments` treats specially inside a description: `\`, `[`, `]` and `:`.
    private static func zshEscaped(_ s: String) -> String {
        var out = ""
        for c in s {
            if "\\[]:".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }

    private static func zshQuoted(_ s: String) -> String { "'" + s.replacingLiterally("'", with: #"'\''"#) + "'" }

    // MARK: fish

    private static func fish() -> String {
        let values = valueOptions.map { "--" + $0.name }.joined(separator: " ")
        var s = ##"""
        # fish completion for pwnvault (generated by 'pwnvault completions fish'; do not edit)

        # The words after pwnvault that are neither options nor their values: the command first, then
        # its arguments (global options may come before the command: pwnvault --vault ~/v2 list).
        function __pwnvault_words
            set -l tokens (commandline -opc)
            set -l skip 0
            for t in $tokens[2..-1]
                if test $skip = 1
                    set skip 0
                    continue
                end
                if contains -- $t \##(values)
                    set skip 1
                else if not string match -q -- '-?*' $t
                    echo $t
                end
            end
        end
        # True while no command has been typed yet.
        function __pwnvault_needs_command
            test (count (__pwnvault_words)) -eq 0
        end
        # True when the command is $argv[1] (and, with $argv[2], when that many arguments follow it).
        function __pwnvault_using
            set -l words (__pwnvault_words)
            test (count $words) -ge 1; and test "$words[1]" = "$argv[1]"; or return 1
            test (count $argv) -lt 2; or test (math (count $words) - 1) -eq $argv[2]
        end
        # The breaches of the account named by the command's first argument (ack's).
        function __pwnvault_findings
            set -l words (__pwnvault_words)
            pwnvault completions --list breaches $words[2] 2>/dev/null
        end

        complete -c pwnvault -f
        complete -c pwnvault -n '__pwnvault_needs_command' -s h -l help -d 'show help'
        complete -c pwnvault -n '__pwnvault_needs_command' -s V -l version -d 'show the version'

        """##
        for o in GlobalOptions.all where o.name != "help" {
            s += fishOption(o, condition: "-n '__pwnvault_needs_command'")
        }
        for command in Commands.all {
            let spec = command.spec
            s += "complete -c pwnvault -n '__pwnvault_needs_command' -a \(spec.name) -d \(fishQuoted(spec.summary))\n"
        }
        for command in Commands.all {
            let spec = command.spec
            let condition = "-n '__pwnvault_using \(spec.name)'"
            s += "\n"
            for o in options(for: spec) { s += fishOption(o, condition: condition) }
            let (first, rest) = positionals(for: spec)
            if first == rest {
                s += fishPositional(first, condition: condition)
            } else {
                s += fishPositional(first, condition: "-n '__pwnvault_using \(spec.name) 0'")
                s += fishPositional(rest, condition: "-n 'not __pwnvault_using \(spec.name) 0; and __pwnvault_using \(spec.name)'")
            }
        }
        return s
    }

    private static func fishOption(_ o: OptionSpec, condition: String) -> String {
        var line = "complete -c pwnvault \(condition)"
        if let short = o.short { line += " -s \(short)" }
        line += " -l \(o.name)"
        if takesPath(o) {
            line += " -r -F"
        } else if let values = choices(for: o) {
            line += " -x -a \(fishQuoted(values.joined(separator: " ")))"
        } else if o.takesValue {
            line += " -x"
        }
        return line + " -d \(fishQuoted(o.help))\n"
    }

    private static func fishPositional(_ source: Source, condition: String) -> String {
        let start = "complete -c pwnvault \(condition)"
        switch source {
        case .nothing: return ""
        case let .words(words): return "\(start) -x -a \(fishQuoted(words.joined(separator: " ")))\n"
        case .ids, .breaches: return "\(start) -x -a '(pwnvault completions --list \(source.listed ?? "") 2>/dev/null)'\n"
        case .findings: return "\(start) -x -a '(__pwnvault_findings)'\n"
        case .files: return "\(start) -F\n"
        }
    }

    private static func fishQuoted(_ s: String) -> String {
        "'" + s.replacingLiterally("\\", with: "\\\\").replacingLiterally("'", with: "\\'") + "'"
    }
}
