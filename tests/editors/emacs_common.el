;;; emacs_common.el --- what the headless Eglot drivers share (emacs --batch -Q)  -*- lexical-binding: t; -*-
;;
;; Loaded first by emacs_driver.el and emacs_terms_driver.el: Debian's elpa Eglot made
;; visible under -Q, UTF-8 throughout, the result alist written as JSON to BLEU_OUT, and a
;; wait that processes events until a predicate holds (BLEU_TIMEOUT_S, default 60).

(require 'package)
;; -Q skips Debian's site start-up, which activates its elpa-* packages.
(dolist (dir '("/usr/share/emacs/site-lisp/elpa"))
  (when (file-directory-p dir)
    (add-to-list 'package-directory-list dir)))
(package-initialize)
(prefer-coding-system 'utf-8)
(require 'eglot)
(require 'json)
(require 'flymake)

(defvar bleu-drv-out (getenv "BLEU_OUT"))
(defvar bleu-drv-result nil)
(defvar bleu-drv-t0 (float-time))
(defvar bleu-drv-timeout (string-to-number (or (getenv "BLEU_TIMEOUT_S") "60")))

(defun bleu-drv-put (key value)
  (setq bleu-drv-result (cons (cons key value) (assq-delete-all key bleu-drv-result))))

(defun bleu-drv-write ()
  (let ((coding-system-for-write 'utf-8))
    (with-temp-file bleu-drv-out
      (let ((json-encoding-pretty-print nil))
        (insert (json-encode (or bleu-drv-result '((empty . t)))))))))

(defun bleu-drv-wait (pred what)
  "Process events until PRED is non-nil; signal an error naming WHAT on timeout."
  (let ((deadline (+ (float-time) bleu-drv-timeout)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (unless (funcall pred)
      (error "Timed out after %ss waiting for %s" bleu-drv-timeout what))))

(defun bleu-drv-events-log ()
  "The tail of Eglot's events buffer (for a failure's message)."
  (let ((buf (cl-find-if (lambda (b) (string-match-p "EGLOT.*events" (buffer-name b))) (buffer-list))))
    (when buf
      (with-current-buffer buf
        (buffer-substring-no-properties (max (point-min) (- (point-max) 6000)) (point-max))))))

(provide 'emacs_common)
