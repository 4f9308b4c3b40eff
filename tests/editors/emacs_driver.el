;;; emacs_driver.el --- drive Eglot + bleu-ls.el headless (emacs --batch -Q)  -*- lexical-binding: t; -*-
;;
;; Environment:
;;   BLEU_LS_EL      editors/emacs/bleu-ls.el
;;   BLEU_HYP        the hypothesis file to open
;;   BLEU_OUT        where to write the JSON result
;;   BLEU_EXPECT_N   how many diagnostics to wait for (the CLI's count)
;;   BLEU_HOVER_LINE 1-based line to hover
;;   BLEU_INIT       initializationOptions as a Lisp plist (read), optional
;;   BLEU_ACTION     the title (prefix) of a code action to run on the hover line, optional
;;   BLEU_L10N       when set, M-x bleu-ls-enable-localization-files first
;;   BLEU_TIMEOUT_S  overall wait (default 60)
;;
;; Writes {"emacs", "eglot", "mode", "server_program", "position_encoding",
;; "connect_s", "diagnostics_s", "diagnostics": [{line, column, code,
;; severity, text}], "hover": "...", "hover_line"} or {"error": "..."}.

(load (expand-file-name "emacs_common.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)

(condition-case err
    (progn
      (load (getenv "BLEU_LS_EL") nil t)
      (when (getenv "BLEU_L10N")  ; the user's opt-in for localization files (docs/editors.md)
        (bleu-ls-enable-localization-files))
      (when (getenv "BLEU_INIT")
        (setq bleu-ls-initialization-options (car (read-from-string (getenv "BLEU_INIT")))))
      (bleu-drv-put 'emacs emacs-version)
      (bleu-drv-put 'eglot (let ((desc (cadr (assq 'eglot package-alist))))
                               (if desc
                                   (package-version-join (package-desc-version desc))
                                 "built-in")))
      (find-file (getenv "BLEU_HYP"))
      (bleu-drv-put 'mode (symbol-name major-mode))
      (bleu-drv-put 'auto_fill (if auto-fill-function t :json-false))
      ;; What M-x eglot does: guess the contact from eglot-server-programs.
      (let ((guess (eglot--guess-contact)))
        (bleu-drv-put 'server_program (car (nth 3 guess)))
        (apply #'eglot guess))
      (bleu-drv-wait (lambda () (and (eglot-current-server) eglot--managed-mode)) "Eglot to connect")
      (bleu-drv-put 'connect_s (- (float-time) bleu-drv-t0))
      (let* ((server (eglot-current-server))
             (caps (eglot--capabilities server))
             (want (string-to-number (or (getenv "BLEU_EXPECT_N") "1"))))
        (bleu-drv-put 'position_encoding (or (plist-get caps :positionEncoding) :json-null))
        (bleu-drv-put 'server_name (plist-get (eglot--server-info server) :name))
        ;; Diagnostics the server pushes (textDocument/publishDiagnostics),
        ;; as Flymake shows them.  Flymake starts a check after a command;
        ;; a batch session has none, so start it here: from then on Eglot
        ;; hands every push to Flymake.
        (flymake-start)
        (bleu-drv-wait (lambda () (>= (length (flymake-diagnostics)) want)) "the pushed diagnostics in Flymake")
        (bleu-drv-put 'diagnostics_s (- (float-time) bleu-drv-t0))
        (bleu-drv-put
         'diagnostics
         (vconcat
          (mapcar (lambda (d)
                    (let* ((beg (flymake-diagnostic-beg d))
                           (lsp (alist-get 'eglot-lsp-diag (flymake-diagnostic-data d))))
                      (save-excursion
                        (goto-char beg)
                        `((line . ,(line-number-at-pos))
                          (column . ,(1+ (- beg (line-beginning-position))))
                          (code . ,(plist-get lsp :code))
                          (severity . ,(symbol-name (flymake-diagnostic-type d)))
                          (text . ,(flymake-diagnostic-text d))))))
                  (flymake-diagnostics))))
        ;; The hover of one line, as M-x eglot-help-at-point shows it.
        (goto-char (point-min))
        (forward-line (1- (string-to-number (or (getenv "BLEU_HOVER_LINE") "1"))))
        (let ((hover (jsonrpc-request server :textDocument/hover
                                      (eglot--TextDocumentPositionParams))))
          (bleu-drv-put 'hover (if hover
                                   (eglot--hover-info (plist-get hover :contents) (plist-get hover :range))
                                 :json-null)))
        ;; The code actions of that line (M-x eglot-code-actions), then the
        ;; one named by BLEU_ACTION chosen where Eglot asks which to run.
        (bleu-drv-put 'hover_s (- (float-time) bleu-drv-t0))
        (let* ((beg (line-beginning-position))
               (end (line-end-position))
               (actions (eglot-code-actions beg end))
               (choice (getenv "BLEU_ACTION"))
               (pushes 0))
          (bleu-drv-put 'code_actions (vconcat (mapcar (lambda (a) (plist-get a :title)) actions)))
          (when choice
            (advice-add 'eglot-handle-notification :after
                        (lambda (_s method &rest _)
                          (when (eq method 'textDocument/publishDiagnostics) (cl-incf pushes)))
                        '((name . bleu-drv-count)))
            (cl-letf (((symbol-function 'completing-read)
                       (lambda (_prompt collection &rest _)
                         (or (cl-find-if (lambda (c) (string-prefix-p choice (car c))) collection)
                             (error "No code action %s among %S" choice (mapcar #'car collection)))
                         (car (cl-find-if (lambda (c) (string-prefix-p choice (car c))) collection)))))
              ;; as from the keyboard (a mouse event would pop up a menu)
              (let ((last-nonmenu-event ?\r))
                (eglot-code-actions beg end nil t)))
            (bleu-drv-put 'action_run_s (- (float-time) bleu-drv-t0))
            (bleu-drv-wait (lambda () (> pushes 0)) "the diagnostics after the code action")
            (bleu-drv-put 'action_pushed_s (- (float-time) bleu-drv-t0))
            (flymake-start)
            (accept-process-output nil 0.2)
            (bleu-drv-put 'diagnostics_after
                          (vconcat (mapcar (lambda (d)
                                             (save-excursion
                                               (goto-char (flymake-diagnostic-beg d))
                                               `((line . ,(line-number-at-pos))
                                                 (code . ,(plist-get (alist-get 'eglot-lsp-diag (flymake-diagnostic-data d)) :code)))))
                                           (flymake-diagnostics))))))
        (bleu-drv-put 'total_s (- (float-time) bleu-drv-t0))
        (ignore-errors (eglot-shutdown server))))
  (error
   (bleu-drv-put 'error (error-message-string err))
   (bleu-drv-put 'events (or (bleu-drv-events-log) ""))))

(bleu-drv-write)
(kill-emacs 0)
