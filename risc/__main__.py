from risc.cli import main

raise SystemExit(main())
