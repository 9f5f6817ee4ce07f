from .assemble import main

raise SystemExit(main())
