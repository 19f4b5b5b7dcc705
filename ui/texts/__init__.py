"""Every word the app shows, one module per page, each entry in both languages."""
