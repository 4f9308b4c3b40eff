from bleu_ls.cli import main

raise SystemExit(main())
