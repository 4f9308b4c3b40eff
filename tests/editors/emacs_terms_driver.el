;;; emacs_terms_driver.el --- a PO file, its glossary term and its quick fix through Eglot (emacs --batch -Q)  -*- lexical-binding: t; -*-
;;
;; The setup docs/editors.md gives for segment files in Emacs ("Segment files in Emacs
;; (opt-in)"): a major mode of the user's own for the extension, in bleu-ls's entry of
;; `eglot-server-programs'.  Then what a translator does: open the catalogue, read the
;; diagnostics Flymake shows, M-x eglot-code-actions on the flagged term and choose the fix.
;;
;; Environment:
;;   BLEU_LS_EL      editors/emacs/bleu-ls.el
;;   BLEU_PO         the PO file to open
;;   BLEU_OUT        where to write the JSON result
;;   BLEU_CODE       the diagnostic code to wait for (term-forbidden)
;;   BLEU_ACTION     the title prefix of the code action to choose on it
;;   BLEU_EXPECT_N   how many diagnostics to wait for before (the CLI's count of the opened text)
;;   BLEU_EXPECT_AFTER  and after the fix (the CLI's count of the fixed text)
;;   BLEU_TIMEOUT_S  overall wait (default 60)
;;
;; Writes {"emacs", "eglot", "mode", "diagnostics": [{line, column, end_column, code,
;; severity, text}], "code_actions": [titles], "buffer_after": text, "line_after": text,
;; "diagnostics_after": [{line, column, code}], timings} or {"error": "..."}.

(load (expand-file-name "emacs_common.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)

(defun bleu-drv-code (d)
  (plist-get (alist-get 'eglot-lsp-diag (flymake-diagnostic-data d)) :code))

(defun bleu-drv-diag (d)
  "What Flymake shows of D: 1-based line and columns, the server's code, Flymake's type, the text."
  (let ((beg (flymake-diagnostic-beg d))
        (end (flymake-diagnostic-end d)))
    (save-excursion
      (goto-char beg)
      `((line . ,(line-number-at-pos))
        (column . ,(1+ (- beg (line-beginning-position))))
        (end_column . ,(1+ (- end (line-beginning-position))))
        (code . ,(bleu-drv-code d))
        (severity . ,(symbol-name (flymake-diagnostic-type d)))
        (text . ,(flymake-diagnostic-text d))))))

;; The user's setup (docs/editors.md): a PO mode of one's own, bound to .po, in bleu-ls's entry.
(define-derived-mode bleu-drv-po-mode text-mode "PO"
  "A PO catalogue, for Eglot to start bleu-ls with.")
(add-to-list 'auto-mode-alist '("\\.po\\'" . bleu-drv-po-mode))

(condition-case err
    (progn
      (load (getenv "BLEU_LS_EL") nil t)
      (add-to-list 'eglot-server-programs '(bleu-drv-po-mode . bleu-ls--contact))
      (bleu-drv-put 'emacs emacs-version)
      (bleu-drv-put 'eglot (let ((desc (cadr (assq 'eglot package-alist))))
                               (if desc
                                   (package-version-join (package-desc-version desc))
                                 "built-in")))
      (find-file (getenv "BLEU_PO"))
      (bleu-drv-put 'mode (symbol-name major-mode))
      ;; What M-x eglot does: guess the contact from eglot-server-programs.
      (apply #'eglot (eglot--guess-contact))
      (bleu-drv-wait (lambda () (and (eglot-current-server) eglot--managed-mode)) "Eglot to connect")
      (bleu-drv-put 'connect_s (- (float-time) bleu-drv-t0))
      (let* ((server (eglot-current-server))
             (code (getenv "BLEU_CODE"))
             (choice (getenv "BLEU_ACTION"))
             (flagged (lambda () (cl-find-if (lambda (d) (equal (bleu-drv-code d) code)) (flymake-diagnostics))))
             (want (string-to-number (or (getenv "BLEU_EXPECT_N") "1")))
             (want-after (string-to-number (or (getenv "BLEU_EXPECT_AFTER") "0")))
             (pushes 0))
        ;; Flymake starts a check after a command; a batch session has none, so start it
        ;; here: from then on Eglot hands every push to Flymake.
        (flymake-start)
        (bleu-drv-wait (lambda () (and (funcall flagged) (>= (length (flymake-diagnostics)) want)))
                       (format "a %s diagnostic among %d in Flymake" code want))
        (bleu-drv-put 'diagnostics_s (- (float-time) bleu-drv-t0))
        (bleu-drv-put 'diagnostics (vconcat (mapcar #'bleu-drv-diag (flymake-diagnostics))))
        ;; M-x eglot-code-actions on the flagged term, the fix chosen where Eglot asks which to run
        (let* ((d (funcall flagged))
               (beg (flymake-diagnostic-beg d))
               (end (flymake-diagnostic-end d))
               (actions (eglot-code-actions beg end)))
          (bleu-drv-put 'code_actions (vconcat (mapcar (lambda (a) (plist-get a :title)) actions)))
          (advice-add 'eglot-handle-notification :after
                      (lambda (_s method &rest _)
                        (when (eq method 'textDocument/publishDiagnostics) (cl-incf pushes)))
                      '((name . bleu-drv-count)))
          (cl-letf (((symbol-function 'completing-read)
                     (lambda (_prompt collection &rest _)
                       (or (car (cl-find-if (lambda (c) (string-prefix-p choice (car c))) collection))
                           (error "No code action %s among %S" choice (mapcar #'car collection))))))
            ;; as from the keyboard (a mouse event would pop up a menu)
            (let ((last-nonmenu-event ?\r))
              (goto-char beg)
              (eglot-code-actions beg end nil t)))
          (bleu-drv-put 'action_run_s (- (float-time) bleu-drv-t0))
          (bleu-drv-put 'buffer_after (buffer-substring-no-properties (point-min) (point-max)))
          (bleu-drv-put 'line_after (buffer-substring-no-properties (line-beginning-position) (line-end-position)))
          ;; the edit goes to the server (didChange), which pushes the diagnostics of the fixed text.
          ;; Eglot sends it from an idle timer (`eglot-send-changes-idle-time'); a batch session
          ;; is never idle, so do here what that timer does.
          (when eglot--change-idle-timer
            (cancel-timer eglot--change-idle-timer)
            (setq eglot--change-idle-timer nil)
            (eglot--signal-textDocument/didChange))
          (bleu-drv-wait (lambda () (and (> pushes 0)
                                         (progn (flymake-start) (not (funcall flagged)))
                                         (>= (length (flymake-diagnostics)) want-after)))
                         (format "the %s diagnostic to go after the fix (and %d others)" code want-after))
          (bleu-drv-put 'fixed_s (- (float-time) bleu-drv-t0))
          (bleu-drv-put 'diagnostics_after (vconcat (mapcar #'bleu-drv-diag (flymake-diagnostics)))))
        (set-buffer-modified-p nil)
        (ignore-errors (eglot-shutdown server))))
  (error
   (bleu-drv-put 'error (error-message-string err))
   (bleu-drv-put 'events (or (bleu-drv-events-log) ""))))

(bleu-drv-write)
(kill-emacs 0)
