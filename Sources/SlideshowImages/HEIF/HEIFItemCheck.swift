import SlideshowFormats
import SlideshowPixels

/// The checks a HEIF file's items pass before libheif sees the file: a graph that ends, and
/// pictures no larger than their boxes say.
///
/// libheif 1.15 follows a derived image's references without a limit: a grid that lists
/// itself among its tiles (or any cycle through `dimg`, `thmb` or `auxl`) makes it recurse,
/// starting threads and allocating until the process dies. And it sizes its memory check by
/// `ispe` while the decoders allocate what the coded headers say: an `ispe` of 64x64 over an
/// 11904x11904 picture decoded to 894 MB. Both are refused here from the boxes alone.
extension HEIFBoxes {
    /// Item types that derive an image from others (ISO/IEC 23008-12 6.6.2).
    package static let derivedTypes: Set<String> = ["grid", "iovl", "iden"]
    /// Item types that hold no image (metadata), and may not be a derived image's input.
    package static let metadataTypes: Set<String> = ["Exif", "mime", "uri "]

    /// Reads the primary item after checking every item of the file (``Meta/checkItems(formatName:)``).
    /// - Throws: `.corrupt` naming the item and the reason, when the items fail a check.
    package static func checkedPrimaryItem(_ bytes: [UInt8], formatName: String) throws(ImageProblem) -> PrimaryItem {
        // Boxes this reader cannot take are left to libheif, which refuses them itself.
        guard let meta = Meta(bytes) else { return PrimaryItem() }
        try meta.checkItems(formatName: formatName)
        return PrimaryItem(rotation: rotation(meta), transformations: transformations(meta), hevcLayout: hevcLayout(meta),
                           refusedReferenceTypes: meta.refusedReferenceTypes)
    }
}

extension HEIFBoxes.Meta {
    /// Checks the item graph and the pictures' sizes.
    ///
    /// - The primary item and every item a `dimg`, `thmb` or `auxl` reference names exist.
    /// - A grid's tiles are distinct coded image items (not derived images, not metadata), as
    ///   many as its rows and columns, and they cover its output size with no row or column
    ///   wholly outside it; its output size is its `ispe`. An `iden` has one input; an `iovl`'s
    ///   canvas is its `ispe`.
    /// - No cycle runs through `dimg` (derived image → input), `auxl` (image → its auxiliary
    ///   image, which decodes with it) or `thmb` (thumbnail → its image).
    /// - An HEVC item's SPS (in its `hvcC` or its data) and an AV1 item's sequence header
    ///   (in its `av1C` or its data) give pictures no larger than its `ispe` (HEVC's coded
    ///   size may pass it by less than one 64-sample coding block on each side).
    /// - Throws: `.corrupt` naming the item and what is wrong.
    package func checkItems(formatName: String) throws(ImageProblem) {
        func corrupt(_ reason: String) -> ImageProblem { ImageProblem(.corrupt, "corrupt \(formatName) data (\(reason))") }
        let known = itemTypes.isEmpty ? nil : itemTypes  // no readable iinf: libheif decides
        if let known, known[primary] == nil { throw corrupt("its primary item \(primary) does not exist") }
        var edges: [Int: [Int]] = [:]
        for reference in references where ["dimg", "thmb", "auxl"].contains(reference.type) {
            if let known {
                for item in [reference.from] + reference.to where known[item] == nil {
                    throw corrupt("its \(reference.type) reference from item \(reference.from) names item \(item), which does not exist")
                }
            }
            if reference.type == "auxl" {
                for to in reference.to { edges[to, default: []].append(reference.from) }
            } else {
                edges[reference.from, default: []] += reference.to
            }
        }
        for (item, type) in itemTypes.sorted(by: { $0.key < $1.key }) {
            switch type {
            case "grid": try checkGrid(item, corrupt)
            case "iden" where (tiles[item]?.count ?? 0) != 1: throw corrupt("its iden item \(item) does not have one input")
            case "iovl": try checkOverlay(item, corrupt)
            case "hvc1": try checkHEVCSize(item, corrupt)
            case "av01": try checkAV1Size(item, corrupt)
            default: break
            }
        }
        if let item = Self.itemOnCycle(edges) {
            throw corrupt("its item references run in a circle through item \(item)")
        }
    }

    private func checkGrid(_ item: Int, _ corrupt: (String) -> ImageProblem) throws(ImageProblem) {
        let inputs = tiles[item] ?? []
        if inputs.contains(item) { throw corrupt("its grid item \(item) lists itself among its tiles") }
        if Set(inputs).count != inputs.count { throw corrupt("its grid item \(item) lists a tile twice") }
        for tile in inputs {
            let type = itemTypes[tile] ?? "none"
            if HEIFBoxes.derivedTypes.contains(type) || HEIFBoxes.metadataTypes.contains(type) {
                throw corrupt("its grid item \(item) has a tile (item \(tile)) that is not a coded image but \(type)")
            }
        }
        guard let grid = data(of: item).flatMap(HEIFBoxes.grid) else { return }  // libheif refuses it
        if inputs.count != grid.rows * grid.columns {
            throw corrupt("its grid item \(item) has \(inputs.count) tiles for \(grid.columns)x\(grid.rows)")
        }
        if let declared = imageSize(of: item), declared != grid.size {
            throw corrupt("its grid item \(item) is \(grid.size) but its ispe says \(declared)")
        }
        for tile in inputs {
            guard let size = imageSize(of: tile) else { continue }
            guard size.width * grid.columns >= grid.size.width, size.width * (grid.columns - 1) < grid.size.width,
                  size.height * grid.rows >= grid.size.height, size.height * (grid.rows - 1) < grid.size.height else {
                throw corrupt("its grid item \(item) of \(grid.size) has a tile (item \(tile)) of \(size), which does not fit \(grid.columns)x\(grid.rows)")
            }
        }
    }

    /// An overlay's canvas (ISO/IEC 23008-12 6.6.2.4.2: version, flags, four 16-bit fill
    /// values, then its output size in 16 or 32 bits) is what libheif allocates: its `ispe` must say so.
    private func checkOverlay(_ item: Int, _ corrupt: (String) -> ImageProblem) throws(ImageProblem) {
        guard let data = data(of: item), data.count >= 14, data[data.startIndex] == 0,
              let declared = imageSize(of: item) else { return }  // libheif refuses what it cannot read
        let wide = data[data.startIndex + 1] & 1 != 0
        guard data.count >= (wide ? 18 : 14) else { return }
        let at = data.startIndex + 10
        let canvas = wide ? Size(width: Int(HEIFBoxes.u32(data, at)), height: Int(HEIFBoxes.u32(data, at + 4)))
                          : Size(width: Int(HEIFBoxes.u16(data, at)), height: Int(HEIFBoxes.u16(data, at + 2)))
        if canvas != declared {
            throw corrupt("its overlay item \(item) is \(canvas) but its ispe says \(declared)")
        }
    }

    private func checkHEVCSize(_ item: Int, _ corrupt: (String) -> ImageProblem) throws(ImageProblem) {
        guard let declared = imageSize(of: item), let properties = properties(of: item),
              let hvcC = properties.first(where: { $0.type == "hvcC" }) else { return }
        let configuration = bytes[hvcC.payload]
        var sizes = CodedPictureSize.hevc(configuration: configuration)
        if configuration.count >= 23, let data = data(of: item) {
            sizes += CodedPictureSize.hevc(data: data, lengthSize: Int(configuration[configuration.startIndex + 21] & 3) + 1)
        }
        // Coded sizes are whole coding blocks (the Sony HIF's 1616x1080 thumbnail is coded at
        // 1664x1088): up to one 64-sample block more than ispe on each side is honest.
        for case let coded? in sizes where coded.width >= declared.width + 64 || coded.height >= declared.height + 64 {
            throw corrupt("item \(item) holds a picture of \(coded) but its ispe says \(declared)")
        }
    }

    private func checkAV1Size(_ item: Int, _ corrupt: (String) -> ImageProblem) throws(ImageProblem) {
        guard let declared = imageSize(of: item), let properties = properties(of: item) else { return }
        var sizes: [Size?] = []
        if let av1C = properties.first(where: { $0.type == "av1C" }), av1C.payload.count > 4 {
            sizes += CodedPictureSize.av1(obus: bytes[av1C.payload].dropFirst(4))
        }
        if let data = data(of: item) { sizes += CodedPictureSize.av1(obus: data) }
        for case let size? in sizes where size.width > declared.width || size.height > declared.height {
            throw corrupt("item \(item) holds a picture of up to \(size) but its ispe says \(declared)")
        }
    }

    /// An item on a cycle of `edges`, or nil; depth first without recursion (a chain may be
    /// as long as the items).
    package static func itemOnCycle(_ edges: [Int: [Int]]) -> Int? {
        var state: [Int: Bool] = [:]  // false: on the current path; true: done
        for start in edges.keys.sorted() where state[start] == nil {
            var stack: [(item: Int, next: Int)] = [(start, 0)]
            state[start] = false
            while let top = stack.last {
                let targets = edges[top.item] ?? []
                if top.next == targets.count {
                    state[top.item] = true
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let target = targets[top.next]
                switch state[target] {
                case false?: return target
                case true?: continue
                case nil:
                    state[target] = false
                    stack.append((target, 0))
                }
            }
        }
        return nil
    }
}
