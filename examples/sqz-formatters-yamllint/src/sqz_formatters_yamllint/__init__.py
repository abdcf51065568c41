"""sqz-formatters-yamllint: an example third-party formatter pack for sqz (see docs/plugin-authoring.md)."""
