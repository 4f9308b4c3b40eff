;;; bleu-ls.el --- BLEU, chrF and TER per line of machine-translation files, through Eglot  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1") (eglot "1.9"))
;; Keywords: languages, tools
;; URL: https://github.com/bleu-ls/bleu-ls

;;; Commentary:

;; A major mode for the files of a machine-translation evaluation
;; (NAME.hyp / NAME.mt hypotheses, NAME.ref / NAME.ref2 … references,
;; NAME.src sources, one segment per line) and its entry in
;; `eglot-server-programs', so that M-x eglot (or `eglot-ensure' from the
;; mode's hook) starts `bleu-ls serve' for them:
;;
;;   (add-to-list 'load-path "/path/to/bleu-ls/editors/emacs")
;;   (require 'bleu-ls)
;;   (add-hook 'bleu-ls-mt-mode-hook #'eglot-ensure)
;;
;; The file names are those of the other editors: NAME.hyp is always a
;; hypothesis; NAME.mt, NAME.ref, NAME.refN and NAME.src only when their
;; partner is beside them (otherwise Emacs chooses their mode as usual).
;;
;; The server's settings (the camelCase keys of docs/configuration.md) go
;; in `bleu-ls-initialization-options'; a bleu-ls.toml in the project wins
;; as in every editor.  Positions are what Eglot negotiates: Eglot 1.9
;; (Emacs 28) counts UTF-16 code units, newer Eglot offers UTF-32 first and
;; the server takes it.

;;; Code:

(require 'cl-lib)
(eval-when-compile (require 'js) (require 'nxml-mode) (require 'conf-mode))

(defgroup bleu-ls nil
  "BLEU, chrF and TER per line of machine-translation files."
  :group 'languages
  :prefix "bleu-ls-")

(defcustom bleu-ls-command '("bleu-ls" "serve")
  "The command that starts the language server (program and arguments)."
  :type '(repeat string))

(defcustom bleu-ls-initialization-options nil
  "Server settings sent as the LSP initializationOptions.
A plist of the server's camelCase keys, e.g.
  (:chrf (:enabled t) :diagnostics (:lowScoreThreshold 15))
nil sends none: the server's defaults and the project's bleu-ls.toml apply."
  :type '(plist :key-type symbol :value-type sexp))

(defconst bleu-ls--hypothesis-extensions '("hyp" "mt")
  "Extensions of a hypothesis file.")

;;;###autoload
(define-derived-mode bleu-ls-mt-mode text-mode "MT"
  "Major mode for machine-translation files: one segment per line.
bleu-ls scores each line of a hypothesis against the same line of
its references (through Eglot: hover, diagnostics, inlay hints)."
  ;; A line is a segment: filling would join or split segments.
  (add-hook 'after-change-major-mode-hook #'bleu-ls--no-fill nil t))

(defun bleu-ls--no-fill ()
  "Keep auto-fill off in an MT buffer, even when `text-mode-hook' turns it on."
  (auto-fill-mode -1))

(defun bleu-ls--sibling-p (file extensions)
  "Non-nil when FILE has a sibling: its name with one of EXTENSIONS instead."
  (let ((stem (file-name-sans-extension file)))
    (cl-some (lambda (ext) (file-exists-p (concat stem "." ext))) extensions)))

(defun bleu-ls--paired-p (file)
  "Non-nil when FILE (.mt, .ref, .refN, .src) has its partner beside it."
  (let ((ext (file-name-extension file)))
    (cond ((null ext) nil)
          ((string= ext "mt") (bleu-ls--sibling-p file '("ref" "ref1" "src")))
          ((string-match-p "\\`\\(?:ref[0-9]*\\|src\\)\\'" ext)
           (bleu-ls--sibling-p file bleu-ls--hypothesis-extensions)))))

;;;###autoload
(defun bleu-ls-mt-mode-maybe ()
  "`bleu-ls-mt-mode' when this file's partner is beside it, else the usual mode."
  (if (and buffer-file-name (bleu-ls--paired-p buffer-file-name))
      (bleu-ls-mt-mode)
    (let ((auto-mode-alist (rassq-delete-all #'bleu-ls-mt-mode-maybe
                                             (copy-sequence auto-mode-alist))))
      (set-auto-mode))))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.hyp\\'" . bleu-ls-mt-mode))
;;;###autoload
(add-to-list 'auto-mode-alist '("\\.\\(?:mt\\|ref[0-9]*\\|src\\)\\'" . bleu-ls-mt-mode-maybe))

;; Software localization files (opt-in: M-x bleu-ls-enable-localization-files, or call it
;; from the init file).  They are known by their place, as the server and the other editors
;; know them: never package.json, pom.xml or gradle.properties.

(defconst bleu-ls--locale-dirs
  '("locales" "locale" "i18n" "lang" "langs" "languages" "translations" "l10n" "messages")
  "Folders whose LANG.json or LANG/NAME.json are localization files.")

(defun bleu-ls-localization-kind (file)
  "The kind of software localization file FILE is by its place, or nil.
One of `json' (i18next and the like, ARB, WebExtension messages,
.xcstrings), `xml' (Android res/values*/strings.xml, .stringsdict),
`properties' (NAME_LANG.properties), `strings' (LANG.lproj/*.strings)
or `yaml' (config/locales, locales, translations)."
  (let* ((path (replace-regexp-in-string "\\\\" "/" file))
         (base (file-name-nondirectory path))
         (dir (directory-file-name (or (file-name-directory path) "")))
         (parent (file-name-nondirectory dir))
         (grand (file-name-nondirectory (directory-file-name (or (file-name-directory dir) "")))))
    (cond
     ((string-match-p "\\.\\(?:arb\\|xcstrings\\)\\'" base) 'json)
     ((string-match-p "\\.json\\'" base)
      (when (or (and (string= base "messages.json") (string= grand "_locales"))
                (member parent bleu-ls--locale-dirs)
                (member grand bleu-ls--locale-dirs))
        'json))
     ((string-match-p "\\.stringsdict\\'" base) 'xml)
     ((string= base "strings.xml")
      (when (and (string-prefix-p "values" parent) (string= grand "res")) 'xml))
     ((string-match-p "\\.strings\\'" base)
      (when (string-suffix-p ".lproj" parent) 'strings))
     ((string-match-p "\\.properties\\'" base)
      (when (string-match-p "_[[:alpha:]]+[^/]*\\.properties\\'" base) 'properties))
     ((string-match-p "\\.ya?ml\\'" base)
      (when (or (string-match-p "/config/locales/" path)
                (member parent '("locales" "translations")))
        'yaml)))))

(define-derived-mode bleu-ls-l10n-json-mode js-mode "L10n-JSON"
  "Major mode for a JSON localization file.
bleu-ls checks it against its source-language file.")

(define-derived-mode bleu-ls-l10n-xml-mode nxml-mode "L10n-XML"
  "Major mode for an Android strings.xml or an Apple .stringsdict file.")

(define-derived-mode bleu-ls-l10n-properties-mode conf-javaprop-mode "L10n-Properties"
  "Major mode for a Java .properties localization file.")

(define-derived-mode bleu-ls-l10n-text-mode text-mode "L10n"
  "Major mode for an Apple .strings or YAML localization file."
  (setq-local indent-tabs-mode nil)
  (add-hook 'after-change-major-mode-hook #'bleu-ls--no-fill nil t))

(defconst bleu-ls-l10n-modes
  '(bleu-ls-l10n-json-mode bleu-ls-l10n-xml-mode bleu-ls-l10n-properties-mode bleu-ls-l10n-text-mode)
  "The major modes of localization files.
They are in bleu-ls's entry of `eglot-server-programs'.")

;;;###autoload
(defun bleu-ls-l10n-mode-maybe ()
  "A localization file's bleu-ls mode when its place says so, else the usual mode."
  (pcase (and buffer-file-name (bleu-ls-localization-kind buffer-file-name))
    ('json (bleu-ls-l10n-json-mode))
    ('xml (bleu-ls-l10n-xml-mode))
    ('properties (bleu-ls-l10n-properties-mode))
    ((or 'strings 'yaml) (bleu-ls-l10n-text-mode))
    (_ (let ((auto-mode-alist (rassq-delete-all #'bleu-ls-l10n-mode-maybe
                                                (copy-sequence auto-mode-alist))))
         (set-auto-mode)))))

(defconst bleu-ls--l10n-extensions
  "\\.\\(?:json\\|arb\\|xcstrings\\|strings\\|stringsdict\\|xml\\|properties\\|ya?ml\\)\\'"
  "File names that may be localization files (their place decides).")

;;;###autoload
(defun bleu-ls-enable-localization-files ()
  "Open software localization files in bleu-ls's modes (Eglot starts bleu-ls).
A file is one by its place (`bleu-ls-localization-kind'); any other
JSON, XML, properties or YAML file keeps the mode Emacs gives it."
  (interactive)
  (add-to-list 'auto-mode-alist (cons bleu-ls--l10n-extensions #'bleu-ls-l10n-mode-maybe)))

(defun bleu-ls--initialization-options (_server)
  "The initializationOptions: `bleu-ls-initialization-options' or {}."
  (or bleu-ls-initialization-options (make-hash-table)))

(defun bleu-ls--contact (&optional _interactive)
  "How Eglot starts the server, read when it starts (so customising applies)."
  `(,@bleu-ls-command :initializationOptions bleu-ls--initialization-options))

;; Eglot is loaded when first needed (M-x eglot, `eglot-ensure'); the entry
;; is added then, or now if it already is.
;;;###autoload
(with-eval-after-load 'eglot
  (defvar eglot-server-programs)
  (add-to-list 'eglot-server-programs (cons (cons 'bleu-ls-mt-mode bleu-ls-l10n-modes) #'bleu-ls--contact)))

(provide 'bleu-ls)
;;; bleu-ls.el ends here
