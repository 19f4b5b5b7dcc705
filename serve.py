"""Start the class server: `streamlit run app.py`, with the server's guards installed before it listens.

Streamlit runs none of the app's code until the first page is opened, so guards installed by the frame
alone (app.py calls them too) would leave a server that nobody has visited yet open to a hostile first
visitor. `make app` starts the app this way; any `streamlit run` option may follow, e.g.
`python serve.py --server.port 8600`.
"""
import sys

from streamlit.web import cli

from ui.shared.no_look_ups import refuse_name_look_ups
from ui.shared.server_guard import install_server_guards
from ui.shared.warm_start import warm_in_background

if __name__ == "__main__":
    install_server_guards()
    refuse_name_look_ups()   # the server process only: tests and the command line keep the network they have
    warm_in_background()   # the pairs load beside the server, which listens at once
    sys.argv = ["streamlit", "run", "app.py", *sys.argv[1:]]
    sys.exit(cli.main())
