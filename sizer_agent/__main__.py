from sizer_agent.cli import main

raise SystemExit(main())
