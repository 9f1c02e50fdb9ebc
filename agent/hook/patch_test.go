package hook

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/asktui/asktui/internal/rules"
)

// patchCase is a patch and the files Codex's parser finds in it.
type patchCase struct {
	// src names the case's origin: the file and test of openai/codex
	// (codex-rs/apply-patch) whose patch it is, or the attack it tries.
	src   string
	patch string
	// want are the files, in order; nil where Codex rejects the patch
	// (or it names none), and where asktui fails closed (why says so).
	want []string
	why  string
}

// codexPatchCases are the patches of Codex's own apply-patch tests (as
// of openai/codex 0e0fb63 parser.rs, fe074c0 invocation.rs, 1fd7a5d
// lib.rs, 7b1c503 tests/suite/tool.rs, 7116353 tests/fixtures), with the
// files Codex's parser reads from them. A patch that parses but fails
// when applied (a missing file, context not found) still names its
// files: the hook is asked before Codex applies anything.
var codexPatchCases = []patchCase{
	// parser.rs
	{src: "parser.rs test_parse_patch: not a patch", patch: "bad"},
	{src: "parser.rs test_parse_patch: no End Patch", patch: "*** Begin Patch\nbad"},
	{src: "parser.rs test_parse_patch: markers padded with spaces",
		patch: "*** Begin Patch \n*** Add File: foo\n+hi\n *** End Patch", want: []string{"foo"}},
	{src: "parser.rs test_parse_patch: an empty Update", patch: "*** Begin Patch\n*** Update File: test.py\n*** End Patch"},
	{src: "parser.rs test_parse_patch: no hunks", patch: "*** Begin Patch\n*** End Patch"},
	{src: "parser.rs test_parse_patch: add, delete, update with a move",
		patch: "*** Begin Patch\n*** Add File: path/add.py\n+abc\n+def\n*** Delete File: path/delete.py\n*** Update File: path/update.py\n*** Move to: path/update2.py\n@@ def f():\n-    pass\n+    return 123\n*** End Patch",
		want:  []string{"path/add.py", "path/delete.py", "path/update.py", "path/update2.py"}},
	{src: "parser.rs test_parse_patch: an Update followed by an Add",
		patch: "*** Begin Patch\n*** Update File: file.py\n@@\n+line\n*** Add File: other.py\n+content\n*** End Patch",
		want:  []string{"file.py", "other.py"}},
	{src: "parser.rs test_parse_patch: a first chunk without @@",
		patch: "*** Begin Patch\n*** Update File: file2.py\n import foo\n+bar\n*** End Patch", want: []string{"file2.py"}},
	{src: "parser.rs test_parse_patch_accepts_relative_and_absolute_hunk_paths",
		patch: "*** Begin Patch\n*** Add File: relative-add.py\n+content\n*** Delete File: /tmp/d/absolute-delete.py\n*** Update File: /tmp/d/absolute-update.py\n@@\n-old\n+new\n*** End Patch",
		want:  []string{"relative-add.py", "/tmp/d/absolute-delete.py", "/tmp/d/absolute-update.py"}},
	{src: "parser.rs test_parse_patch_lenient: <<EOF", patch: "<<EOF\n*** Begin Patch\n*** Update File: file2.py\n import foo\n+bar\n*** End Patch\nEOF\n", want: []string{"file2.py"}},
	{src: "parser.rs test_parse_patch_lenient: <<'EOF'", patch: "<<'EOF'\n*** Begin Patch\n*** Update File: file2.py\n import foo\n+bar\n*** End Patch\nEOF\n", want: []string{"file2.py"}},
	{src: `parser.rs test_parse_patch_lenient: <<"EOF"`, patch: "<<\"EOF\"\n*** Begin Patch\n*** Update File: file2.py\n import foo\n+bar\n*** End Patch\nEOF\n", want: []string{"file2.py"}},
	{src: "parser.rs test_parse_patch_lenient: mismatched quotes", patch: "<<\"EOF'\n*** Begin Patch\n*** Update File: file2.py\n import foo\n+bar\n*** End Patch\nEOF\n"},
	{src: "parser.rs test_parse_patch_lenient: no End Patch in the heredoc", patch: "<<EOF\n*** Begin Patch\n*** Update File: file2.py\nEOF\n"},
	{src: "parser.rs test_parse_one_hunk: not a header", patch: "*** Begin Patch\nbad\n*** End Patch"},
	{src: "parser.rs test_update_file_chunk: @@ without lines", patch: "*** Begin Patch\n*** Update File: a\n@@\n*** End Patch"},
	{src: "parser.rs test_update_file_chunk: @@ then a bad line", patch: "*** Begin Patch\n*** Update File: a\n@@\nbad\n*** End Patch"},
	{src: "parser.rs test_update_file_chunk: @@ then End of File", patch: "*** Begin Patch\n*** Update File: a\n@@\n*** End of File\n*** End Patch"},
	{src: "parser.rs test_update_file_chunk: context, an empty line, changes",
		patch: "*** Begin Patch\n*** Update File: a\n@@ change_context\n\n context\n-remove\n+add\n context2\n*** End Patch", want: []string{"a"}},
	{src: "parser.rs test_update_file_chunk: End of File",
		patch: "*** Begin Patch\n*** Update File: a\n@@\n+line\n*** End of File\n*** End Patch", want: []string{"a"}},
	{src: "parser.rs test_parse_patch_streaming: no End Patch is rejected outside streaming", patch: "*** Begin Patch\n*** Delete File: gone.txt"},
	{src: "parser.rs test_parse_patch_streaming_large_patch_by_character: the whole patch",
		patch: "*** Begin Patch\n*** Add File: docs/release-notes.md\n+# Release notes\n+\n+## CLI\n*** Update File: src/config.rs\n@@ impl Config\n-    pub apply_patch_progress: bool,\n+    pub stream_apply_patch_progress: bool,\n     pub include_diagnostics: bool,\n@@ fn default_progress_interval()\n-    Duration::from_millis(500)\n+    Duration::from_millis(250)\n*** Delete File: src/legacy_patch_progress.rs\n*** Update File: crates/cli/src/main.rs\n*** Move to: crates/cli/src/bin/codex.rs\n@@ fn run()\n-    let args = Args::parse();\n+    let cli = Cli::parse();\n*** Add File: tests/fixtures/apply_patch_progress.json\n+{\n+}\n*** Update File: README.md\n@@ Development workflow\n Build the Rust workspace before opening a pull request.\n+When touching streamed tool calls, include parser coverage for partial input.\n*** Delete File: docs/old-apply-patch-progress.md\n*** End Patch",
		want: []string{"docs/release-notes.md", "src/config.rs", "src/legacy_patch_progress.rs", "crates/cli/src/main.rs", "crates/cli/src/bin/codex.rs",
			"tests/fixtures/apply_patch_progress.json", "README.md", "docs/old-apply-patch-progress.md"}},

	// invocation.rs
	{src: "invocation.rs test_literal", patch: "*** Begin Patch\n*** Add File: foo\n+hi\n*** End Patch\n", want: []string{"foo"}},
	{src: "invocation.rs test_heredoc: the shell form is never the hook's input; parse_patch rejects it",
		patch: "apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: foo\n+hi\n*** End Patch\nPATCH"},
	{src: "invocation.rs test_heredoc_with_leading_cd: likewise", patch: "cd foo && apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: foo\n+hi\n*** End Patch\nPATCH"},
	{src: "invocation.rs test_unified_diff_last_line_replacement",
		patch: "*** Begin Patch\n*** Update File: /tmp/d/last.txt\n@@\n foo\n bar\n-baz\n+BAZ\n\n*** End Patch", want: []string{"/tmp/d/last.txt"}},
	{src: "invocation.rs test_unified_diff_insert_at_eof",
		patch: "*** Begin Patch\n*** Update File: /tmp/d/insert.txt\n@@\n+quux\n*** End of File\n\n*** End Patch", want: []string{"/tmp/d/insert.txt"}},
	{src: "invocation.rs test_apply_patch_should_resolve_absolute_paths_in_cwd",
		patch: "*** Begin Patch\n*** Update File: source.txt\n@@\n-session directory content\n+updated session directory content\n*** End Patch", want: []string{"source.txt"}},
	{src: "invocation.rs test_apply_patch_resolves_move_path_with_effective_cwd (the patch)",
		patch: "*** Begin Patch\n*** Update File: old.txt\n*** Move to: renamed.txt\n@@\n-before\n+after\n*** End Patch", want: []string{"old.txt", "renamed.txt"}},

	// lib.rs
	{src: "lib.rs test_add_file_hunk_creates_file_with_contents", patch: "*** Begin Patch\n*** Add File: /tmp/d/add.txt\n+ab\n+cd\n*** End Patch", want: []string{"/tmp/d/add.txt"}},
	{src: "lib.rs test_delete_file_hunk_removes_file", patch: "*** Begin Patch\n*** Delete File: /tmp/d/del.txt\n*** End Patch", want: []string{"/tmp/d/del.txt"}},
	{src: "lib.rs test_update_file_hunk_modifies_content", patch: "*** Begin Patch\n*** Update File: /tmp/d/update.txt\n@@\n foo\n-bar\n+baz\n*** End Patch", want: []string{"/tmp/d/update.txt"}},
	{src: "lib.rs test_update_file_hunk_can_move_file", patch: "*** Begin Patch\n*** Update File: /tmp/d/src.txt\n*** Move to: /tmp/d/dst.txt\n@@\n-line\n+line2\n*** End Patch",
		want: []string{"/tmp/d/src.txt", "/tmp/d/dst.txt"}},
	{src: "lib.rs test_multiple_update_chunks_apply_to_single_file", patch: "*** Begin Patch\n*** Update File: /tmp/d/multi.txt\n@@\n foo\n-bar\n+BAR\n@@\n baz\n-qux\n+QUX\n*** End Patch",
		want: []string{"/tmp/d/multi.txt"}},
	{src: "lib.rs test_update_file_hunk_interleaved_changes", patch: "*** Begin Patch\n*** Update File: /tmp/d/interleaved.txt\n@@\n a\n-b\n+B\n@@\n c\n d\n-e\n+E\n@@\n f\n+g\n*** End of File\n*** End Patch",
		want: []string{"/tmp/d/interleaved.txt"}},
	{src: "lib.rs test_update_line_with_unicode_dash", patch: "*** Begin Patch\n*** Update File: /tmp/d/unicode.py\n@@\n-import asyncio  # local import - avoids top-level dep\n+import asyncio  # HELLO\n*** End Patch",
		want: []string{"/tmp/d/unicode.py"}},
	{src: "lib.rs test_unified_diff_first_line_replacement", patch: "*** Begin Patch\n*** Update File: /tmp/d/first.txt\n@@\n-foo\n+FOO\n bar\n\n*** End Patch", want: []string{"/tmp/d/first.txt"}},

	// tests/suite
	{src: "tests/suite/tool.rs test_apply_patch_cli_self_move_preserves_file",
		patch: "*** Begin Patch\n*** Update File: diary.md\n*** Move to: ./diary.md\n@@\n-entry\n+notes\n*** End Patch", want: []string{"diary.md", "./diary.md"}},
	{src: "tests/suite/cli.rs test_apply_patch_cli_normalizes_crlf_without_flag",
		patch: "*** Begin Patch\r\n*** Update File: crlf_default.txt\r\n@@\r\n-one\r\n+uno\r\n two\r\n*** End Patch\r\n", want: []string{"crlf_default.txt"}},

	// tests/fixtures/scenarios/*/patch.txt
	{src: "scenarios/001_add_file", patch: "*** Begin Patch\n*** Add File: bar.md\n+This is a new file\n*** End Patch\n", want: []string{"bar.md"}},
	{src: "scenarios/002_multiple_operations", patch: "*** Begin Patch\n*** Add File: nested/new.txt\n+created\n*** Delete File: delete.txt\n*** Update File: modify.txt\n@@\n-line2\n+changed\n*** End Patch\n",
		want: []string{"nested/new.txt", "delete.txt", "modify.txt"}},
	{src: "scenarios/003_multiple_chunks", patch: "*** Begin Patch\n*** Update File: multi.txt\n@@\n-line2\n+changed2\n@@\n-line4\n+changed4\n*** End Patch\n", want: []string{"multi.txt"}},
	{src: "scenarios/004_move_to_new_directory", patch: "*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n-old content\n+new content\n*** End Patch\n",
		want: []string{"old/name.txt", "renamed/dir/name.txt"}},
	{src: "scenarios/005_rejects_empty_patch", patch: "*** Begin Patch\n*** End Patch\n"},
	{src: "scenarios/006_rejects_missing_context (fails when applied)", patch: "*** Begin Patch\n*** Update File: modify.txt\n@@\n-missing\n+changed\n*** End Patch\n", want: []string{"modify.txt"}},
	{src: "scenarios/007_rejects_missing_file_delete (fails when applied)", patch: "*** Begin Patch\n*** Delete File: missing.txt\n*** End Patch\n", want: []string{"missing.txt"}},
	{src: "scenarios/008_rejects_empty_update_hunk", patch: "*** Begin Patch\n*** Update File: foo.txt\n*** End Patch\n"},
	{src: "scenarios/009_requires_existing_file_for_update (fails when applied)", patch: "*** Begin Patch\n*** Update File: missing.txt\n@@\n-old\n+new\n*** End Patch\n", want: []string{"missing.txt"}},
	{src: "scenarios/010_move_overwrites_existing_destination", patch: "*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n-from\n+new\n*** End Patch\n",
		want: []string{"old/name.txt", "renamed/dir/name.txt"}},
	{src: "scenarios/011_add_overwrites_existing_file", patch: "*** Begin Patch\n*** Add File: duplicate.txt\n+new content\n*** End Patch\n", want: []string{"duplicate.txt"}},
	{src: "scenarios/012_delete_directory_fails (fails when applied)", patch: "*** Begin Patch\n*** Delete File: dir\n*** End Patch\n", want: []string{"dir"}},
	{src: "scenarios/013_rejects_invalid_hunk_header", patch: "*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch\n"},
	{src: "scenarios/014_update_file_appends_trailing_newline", patch: "*** Begin Patch\n*** Update File: no_newline.txt\n@@\n-no newline at end\n+first line\n+second line\n*** End Patch\n",
		want: []string{"no_newline.txt"}},
	{src: "scenarios/015_failure_after_partial_success_leaves_changes", patch: "*** Begin Patch\n*** Add File: created.txt\n+hello\n*** Update File: missing.txt\n@@\n-old\n+new\n*** End Patch\n",
		want: []string{"created.txt", "missing.txt"}},
	{src: "scenarios/016_pure_addition_update_chunk", patch: "*** Begin Patch\n*** Update File: input.txt\n@@\n+added line 1\n+added line 2\n*** End Patch\n", want: []string{"input.txt"}},
	{src: "scenarios/017_whitespace_padded_hunk_header", patch: "*** Begin Patch\n  *** Update File: foo.txt\n@@\n-old\n+new\n*** End Patch\n", want: []string{"foo.txt"}},
	{src: "scenarios/018_whitespace_padded_patch_markers", patch: " *** Begin Patch\n*** Update File: file.txt\n@@\n-one\n+two\n*** End Patch \n", want: []string{"file.txt"}},
	{src: "scenarios/019_unicode_simple", patch: "*** Begin Patch\n*** Update File: foo.txt\n@@\n line1\n-naïve café\n+naïve café ✅\n*** End Patch \n", want: []string{"foo.txt"}},
	{src: "scenarios/020_delete_file_success", patch: "*** Begin Patch\n*** Delete File: obsolete.txt\n*** End Patch\n", want: []string{"obsolete.txt"}},
	{src: "scenarios/020_whitespace_padded_patch_marker_lines", patch: "*** Begin Patch \n*** Update File: file.txt\n@@\n-one\n+two\n *** End Patch\n", want: []string{"file.txt"}},
	{src: "scenarios/021_update_file_deletion_only", patch: "*** Begin Patch\n*** Update File: lines.txt\n@@\n line1\n-line2\n line3\n*** End Patch\n", want: []string{"lines.txt"}},
	{src: "scenarios/022_update_file_end_of_file_marker", patch: "*** Begin Patch\n*** Update File: tail.txt\n@@\n first\n-second\n+second updated\n*** End of File\n*** End Patch\n", want: []string{"tail.txt"}},
}

// attackPatchCases try to make asktui and Codex read different files.
// Where Codex reads a header, so does asktui (and a rule then sees the
// file); where a line could be taken for one but Codex does not read it
// so, asktui fails closed.
var attackPatchCases = []patchCase{
	// A header padded with Unicode white space, where a hunk starts:
	// Codex trims it and reads the header.
	{src: "a space before an Add, the first hunk",
		patch: "*** Begin Patch\n *** Add File: ../outside.txt\n+evil\n*** Update File: docs/a.md\n@@\n-a\n+b\n*** End Patch",
		want:  []string{"../outside.txt", "docs/a.md"}},
	{src: "a tab before an Add, after an Add",
		patch: "*** Begin Patch\n*** Add File: docs/a.md\n+x\n\t*** Add File: ../outside.txt\n+evil\n*** End Patch",
		want:  []string{"docs/a.md", "../outside.txt"}},
	{src: "a no-break space before a Delete, after an Add",
		patch: "*** Begin Patch\n*** Add File: docs/a.md\n+x\n\u00a0*** Delete File: ../outside.txt\n*** End Patch",
		want:  []string{"docs/a.md", "../outside.txt"}},
	{src: "an ideographic space before an Update, after a Delete",
		patch: "*** Begin Patch\n*** Delete File: docs/old.md\n\u3000*** Update File: ../outside.txt\n@@\n-a\n+b\n*** End Patch",
		want:  []string{"docs/old.md", "../outside.txt"}},
	{src: "NEL, form feed and vertical tab before headers (all White_Space)",
		patch: "*** Begin Patch\n\u0085*** Delete File: ../one\n\f*** Delete File: ../two\n\v*** Delete File: ../three\n*** End Patch",
		want:  []string{"../one", "../two", "../three"}},
	{src: "white space after a header's path",
		patch: "*** Begin Patch\n*** Delete File: docs/a.md \t\u00a0\n*** End Patch", want: []string{"docs/a.md"}},
	{src: "CRLF line endings", patch: "*** Begin Patch\r\n*** Add File: docs/a.md\r\n+x\r\n\u00a0*** Delete File: ../outside.txt\r\n*** End Patch\r\n",
		want: []string{"docs/a.md", "../outside.txt"}},
	{src: "mixed line endings", patch: "*** Begin Patch\r\n*** Update File: docs/a.md\n@@\r\n-a\n+b\r\n*** End Patch\n", want: []string{"docs/a.md"}},

	// The same headers where Codex does not read them.
	{src: "a space before an Add inside an Update: a context line to Codex",
		patch: "*** Begin Patch\n*** Update File: docs/a.md\n@@\n-a\n+b\n *** Add File: ../outside.txt\n+evil\n*** End Patch",
		why:   "a context line that reads as a header"},
	{src: "a tab before an Add inside an Update: Codex rejects the chunk",
		patch: "*** Begin Patch\n*** Update File: docs/a.md\n@@\n-a\n+b\n\t*** Add File: ../outside.txt\n+evil\n*** End Patch"},
	{src: "a no-break space before an Add inside an Update: Codex rejects the chunk",
		patch: "*** Begin Patch\n*** Update File: docs/a.md\n@@\n-a\n+b\n\u00a0*** Add File: ../outside.txt\n*** End Patch"},
	{src: "a space and a zero-width space before an Add inside an Update: a context line to Codex",
		patch: "*** Begin Patch\n*** Update File: docs/a.md\n@@\n-a\n+b\n \u200b*** Add File: ../outside.txt\n*** End Patch",
		why:   "a context line that reads as a header"},
	{src: "a space and a Hangul filler before an Add inside an Update",
		patch: "*** Begin Patch\n*** Update File: docs/a.md\n@@\n-a\n+b\n \u3164*** Add File: ../outside.txt\n*** End Patch",
		why:   "a context line that reads as a header"},
	{src: "a space and a combining grapheme joiner before an Add inside an Update",
		patch: "*** Begin Patch\n*** Update File: docs/a.md\n@@\n-a\n+b\n \u034f*** Add File: ../outside.txt\n*** End Patch",
		why:   "a context line that reads as a header"},
	{src: "a zero-width space before a header: not trimmed, an invalid header to Codex",
		patch: "*** Begin Patch\n*** Add File: docs/a.md\n+x\n\u200b*** Add File: ../outside.txt\n+evil\n*** End Patch"},
	{src: "a byte order mark before Begin Patch", patch: "\ufeff*** Begin Patch\n*** Add File: docs/a.md\n+x\n*** End Patch"},
	{src: "a lone CR before a header in an added line: content to Codex",
		patch: "*** Begin Patch\n*** Update File: docs/a.md\n@@\n-a\n+b\r*** Add File: ../outside.txt\n+evil\n*** End Patch",
		why:   "another reader would split the line there"},
	{src: "a line separator before a header in an added line",
		patch: "*** Begin Patch\n*** Add File: docs/a.md\n+b\u2028*** Add File: ../outside.txt\n*** End Patch",
		why:   "another reader would split the line there"},
	{src: "a context line of asterisks (a Markdown rule)",
		patch: "*** Begin Patch\n*** Update File: docs/a.md\n@@\n ***\n-a\n+b\n*** End Patch", why: "asktui cannot tell it from a hidden header"},

	// Headers as content: a + or - line is never a header.
	{src: "an Add header as an added line of an Update",
		patch: "*** Begin Patch\n*** Update File: docs/a.md\n@@\n-a\n+*** Add File: ../outside.txt\n*** End Patch", want: []string{"docs/a.md"}},
	{src: "a Delete header as a removed line of an Update",
		patch: "*** Begin Patch\n*** Update File: docs/a.md\n@@\n-*** Delete File: ../outside.txt\n+b\n*** End Patch", want: []string{"docs/a.md"}},
	{src: "an Add header as a line of an added file",
		patch: "*** Begin Patch\n*** Add File: docs/a.md\n+*** Add File: ../outside.txt\n+evil\n*** End Patch", want: []string{"docs/a.md"}},

	// Move to.
	{src: "Move to without an Update", patch: "*** Begin Patch\n*** Move to: ../outside.txt\n*** End Patch"},
	{src: "Move to after an Add", patch: "*** Begin Patch\n*** Add File: docs/a.md\n+x\n*** Move to: ../outside.txt\n*** End Patch"},
	{src: "Move to after a chunk", patch: "*** Begin Patch\n*** Update File: docs/a.md\n@@\n-a\n+b\n*** Move to: ../outside.txt\n*** End Patch"},
	{src: "two Move to lines", patch: "*** Begin Patch\n*** Update File: docs/a.md\n*** Move to: docs/b.md\n*** Move to: ../outside.txt\n@@\n-a\n+b\n*** End Patch"},
	{src: "a space before Move to: a context line to Codex, no move",
		patch: "*** Begin Patch\n*** Update File: docs/a.md\n *** Move to: ../outside.txt\n-a\n+b\n*** End Patch", why: "a context line that reads as a header"},
	{src: "a tab before Move to: Codex rejects the chunk",
		patch: "*** Begin Patch\n*** Update File: docs/a.md\n\t*** Move to: ../outside.txt\n@@\n-a\n+b\n*** End Patch"},
	{src: "white space after a Move to path: Codex keeps it",
		patch: "*** Begin Patch\n*** Update File: docs/a.md\n*** Move to: ../outside.txt \n@@\n-a\n+b\n*** End Patch", why: "a path with white space at its end"},
	{src: "an empty Move to", patch: "*** Begin Patch\n*** Update File: docs/a.md\n*** Move to: \n@@\n-a\n+b\n*** End Patch", why: "an empty path"},

	// Paths.
	{src: "two headers naming one file", patch: "*** Begin Patch\n*** Add File: docs/a.md\n+x\n*** Delete File: docs/a.md\n*** End Patch", want: []string{"docs/a.md"}},
	{src: "an empty path: an invalid header to Codex", patch: "*** Begin Patch\n*** Add File: \n+x\n*** End Patch"},
	{src: "a path with an escape", patch: "*** Begin Patch\n*** Add File: docs/a\x1b[2K.md\n+x\n*** End Patch", why: "a control character"},
	{src: "a path with a tab", patch: "*** Begin Patch\n*** Delete File: docs/a\tb.md\n*** End Patch", why: "a control character"},
	{src: "a path with a bidirectional override", patch: "*** Begin Patch\n*** Delete File: docs/\u202edm.a\n*** End Patch", why: "a format character"},
	{src: "a path with a leading space", patch: "*** Begin Patch\n*** Delete File:  docs/a.md\n*** End Patch", why: "a path with white space at its start"},
	{src: "a path with a no-break space inside", patch: "*** Begin Patch\n*** Delete File: docs/a\u00a0b.md\n*** End Patch", why: "white space other than a space"},
	{src: "a path with spaces inside", patch: "*** Begin Patch\n*** Delete File: docs/a b.md\n*** End Patch", want: []string{"docs/a b.md"}},

	// The envelope.
	{src: "blank lines around the patch (Codex trims the whole text)", patch: "\n \n*** Begin Patch\n*** Add File: docs/a.md\n+x\n*** End Patch\n\t\n", want: []string{"docs/a.md"}},
	{src: "no Begin Patch", patch: "*** Add File: ../outside.txt\n+evil\n*** End Patch"},
	{src: "no End Patch", patch: "*** Begin Patch\n*** Add File: docs/a.md\n+x"},
	{src: "two Begin Patch", patch: "*** Begin Patch\n*** Begin Patch\n*** Add File: docs/a.md\n+x\n*** End Patch"},
	{src: "End Patch, then more hunks", patch: "*** Begin Patch\n*** Add File: docs/a.md\n+x\n*** End Patch\n*** Add File: ../outside.txt\n+evil\n*** End Patch"},
	{src: "text after End Patch", patch: "*** Begin Patch\n*** Add File: docs/a.md\n+x\n*** End Patch\nrm -rf ~"},
	{src: "End of File after an Add", patch: "*** Begin Patch\n*** Add File: docs/a.md\n+x\n*** End of File\n*** End Patch"},
	{src: "End of File twice", patch: "*** Begin Patch\n*** Update File: docs/a.md\n@@\n+x\n*** End of File\n*** End of File\n*** End Patch"},
	{src: "a padded End of File: a context line to Codex", patch: "*** Begin Patch\n*** Update File: docs/a.md\n@@\n+x\n *** End of File\n*** End Patch",
		why: "a context line that reads as a header"},
	{src: "a context marker without its space", patch: "*** Begin Patch\n*** Update File: docs/a.md\n@@x\n-a\n+b\n*** End Patch"},
	{src: "a second chunk without a context marker", patch: "*** Begin Patch\n*** Update File: docs/a.md\n@@\n-a\n+b\n\t\n-c\n+d\n*** End Patch"},
	{src: "a line of a tab between chunks", patch: "*** Begin Patch\n*** Update File: docs/a.md\n@@\n-a\n+b\n\t\n@@\n-c\n+d\n*** End Patch", want: []string{"docs/a.md"}},
	{src: "a header in lower case", patch: "*** Begin Patch\n*** add file: ../outside.txt\n+evil\n*** End Patch"},
	{src: "four asterisks", patch: "*** Begin Patch\n**** Add File: ../outside.txt\n+evil\n*** End Patch"},

	// Heredoc wrappers (Codex's lenient mode).
	{src: "a heredoc around a padded header",
		patch: "<<'EOF'\n*** Begin Patch\n*** Add File: docs/a.md\n+x\n *** Delete File: ../outside.txt\n*** End Patch\nEOF", want: []string{"docs/a.md", "../outside.txt"}},
	{src: "a heredoc of another word", patch: "<<'PATCH'\n*** Begin Patch\n*** Add File: docs/a.md\n+x\n*** End Patch\nPATCH"},
	{src: "a heredoc with its command", patch: "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: docs/a.md\n+x\n*** End Patch\nEOF"},
	{src: "a heredoc marker with a space", patch: "<< 'EOF'\n*** Begin Patch\n*** Add File: docs/a.md\n+x\n*** End Patch\nEOF"},
	{src: "a heredoc whose last line only ends in EOF",
		patch: "<<EOF\n*** Begin Patch\n*** Add File: docs/a.md\n+x\n*** End Patch\nnot EOF", want: []string{"docs/a.md"}},
	{src: "a heredoc whose last line does not end in EOF", patch: "<<EOF\n*** Begin Patch\n*** Add File: docs/a.md\n+x\n*** End Patch\nEND"},
	{src: "a heredoc too short", patch: "<<EOF\n*** Begin Patch\nEOF"},
}

// TestPatchPaths: the files asktui reads from an apply_patch patch are
// those Codex's parser reads, on Codex's own test patches and on patches
// made to tell the two apart; nil where Codex rejects the patch or
// asktui cannot be sure it reads it as Codex does.
func TestPatchPaths(t *testing.T) {
	for _, table := range []struct {
		name  string
		cases []patchCase
	}{{"codex", codexPatchCases}, {"attack", attackPatchCases}} {
		t.Run(table.name, func(t *testing.T) {
			for _, c := range table.cases {
				if got := patchPaths(c.patch); !reflect.DeepEqual(got, c.want) {
					t.Errorf("%s:\n%q\nnames %q, want %q %s", c.src, c.patch, got, c.want, c.why)
				}
			}
		})
	}
}

// TestPatchOutsideARule: a patch whose padded header writes outside the
// directory a rule allows is not allowed by it; the same patch without
// that hunk is.
func TestPatchOutsideARule(t *testing.T) {
	cwd := t.TempDir()
	set, err := rules.Parse([]byte("allow "+cwd+" Edit(./docs/**)\n"), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	decide := func(patch string) rules.Verdict {
		t.Helper()
		in := fixture(t, "codex", "patch")
		in.Cwd = cwd
		in.ToolInput, _ = json.Marshal(map[string]string{"command": patch})
		p := askedPermission(t, HandleCodex, in)
		if p == nil {
			return rules.Ask // no permission: no rule answers
		}
		return set.Decide(p).Verdict
	}
	docs := "*** Update File: " + cwd + "/docs/a.md\n@@\n-a\n+b\n"
	if v := decide("*** Begin Patch\n" + docs + "*** End Patch\n"); v != rules.Allowed {
		t.Fatalf("a patch of docs/a.md: %v, want allowed", v)
	}
	for _, pad := range []string{" ", "\t", "\u00a0", "\u3000"} {
		for _, outside := range []string{"../outside.txt", cwd + "/../outside.txt", cwd + "/main.go"} {
			patch := "*** Begin Patch\n" + pad + "*** Add File: " + outside + "\n+evil\n" + docs + "*** End Patch\n"
			if v := decide(patch); v == rules.Allowed {
				t.Errorf("%q is allowed", patch)
			}
		}
	}
}
