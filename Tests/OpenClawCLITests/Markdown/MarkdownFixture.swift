/// A reply with every block the terminal renders, as an agent writes one.
enum MarkdownFixture {
    static let reply = """
        # Deploy report

        The build **passed** on *all* targets; see [the run](https://ci.example.com/run/42) or `swift test`.
        A second line of the same paragraph, long enough to wrap on a narrow terminal window at forty.

        ## Steps
        1. Fetch the sources
        2. Build with `-c release`
           - nested: ~~skip~~ tests
        - [x] done item
        - [ ] open item

        > Note: quoted *advice*
        > on two lines

        | Target | Time | Result |
        |:-------|-----:|:------:|
        | linux-x86_64 | 6.5 min | ok |
        | macos-arm64 with a longer name | 4 min | ok |

        ```swift
        let answer = 42 // the answer
        func greet(_ name: String) -> String { "hello \\(name)" }
        ```

        ---
        Bare link: https://example.com/docs.
        """
}
