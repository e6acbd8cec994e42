import Foundation
import Testing
import TestSupport

/// The tests find the tool the way SwiftPM lays it out: beside the test bundle, a regular,
/// executable file. A clone named `slideshow` (a directory with the x bit) is never taken.
@Suite("Tests find the built tool beside the test bundle")
struct ToolLocationTests {
    @Test("The tool is built beside the test bundle (the one failure when it is not)")
    func toolIsBuilt() throws {
        switch builtSlideshow {
        case .success(let path):
            #expect(URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL
                == TestEnvironment.productsDirectory.standardizedFileURL)
        case .failure(let problem):
            Issue.record("\(problem)")
        }
    }

    @Test("The products folder is the running test bundle's own folder")
    func productsFolderHoldsTheBundle() throws {
        let bundle = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(URL(fileURLWithPath: bundle).lastPathComponent.hasSuffix(".xctest"))
        #expect(URL(fileURLWithPath: bundle).deletingLastPathComponent() == TestEnvironment.productsDirectory)
    }

    @Test("A directory named slideshow, on the way up or beside the bundle, is never taken")
    func directoriesAreNeverTaken() throws {
        let folder = try TemporaryFolder()
        // A clone named slideshow, with its build folder inside, and the tool not yet built.
        let products = folder.url.appendingPathComponent("slideshow/.build/x86_64-unknown-linux-gnu/debug")
        try FileManager.default.createDirectory(at: products, withIntermediateDirectories: true)
        let expected = products.appendingPathComponent("slideshow").path
        #expect(TestEnvironment.builtTool("slideshow", in: products) == .failure(.missing(path: expected)))

        // A directory named slideshow beside the bundle.
        try FileManager.default.createDirectory(atPath: expected, withIntermediateDirectories: false)
        #expect(TestEnvironment.builtTool("slideshow", in: products) == .failure(.notARegularFile(path: expected)))
        try FileManager.default.removeItem(atPath: expected)

        // A FIFO is no program either.
        #expect(mkfifo(expected, 0o755) == 0)
        #expect(TestEnvironment.builtTool("slideshow", in: products) == .failure(.notARegularFile(path: expected)))
        try FileManager.default.removeItem(atPath: expected)

        // A regular file without the x bit, then with it.
        #expect(FileManager.default.createFile(atPath: expected, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o644]))
        // (Even root needs one x bit for access(X_OK).)
        #expect(TestEnvironment.builtTool("slideshow", in: products) == .failure(.notExecutable(path: expected)))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: expected)
        #expect(TestEnvironment.builtTool("slideshow", in: products) == .success(expected))
    }

    @Test("The message names the expected path and the command that builds it")
    func problemSaysWhatToDo() {
        let text = "\(BuiltToolProblem.missing(path: "/x/.build/debug/slideshow"))"
        #expect(text == "no built tool at /x/.build/debug/slideshow; build it with `swift build --build-tests` (or `make test`), which puts the tool beside the test bundle")
    }
}
