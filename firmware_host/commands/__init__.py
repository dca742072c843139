"""Commands of the draughtsboard CLI: each module has add_parser(subparsers) and run(args)."""
