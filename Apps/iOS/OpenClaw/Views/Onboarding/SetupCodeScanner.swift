#if canImport(VisionKit) && canImport(UIKit)
    import SwiftUI
    import UIKit
    import Vision
    import VisionKit

    /// The camera looking for the QR code `openclaw qr` shows: the first code read is handed over as
    /// text, and `AppModel.pair(withSetupCode:)` decides what it is worth (the same parser as a pasted
    /// code). Nothing else is decided here.
    struct SetupCodeScanner: UIViewControllerRepresentable {
        let found: (String) -> Void

        /// Whether this device has a camera that can read codes, and the person allowed it.
        @MainActor static var isAvailable: Bool {
            DataScannerViewController.isSupported && DataScannerViewController.isAvailable
        }

        func makeUIViewController(context: Context) -> DataScannerViewController {
            let scanner = DataScannerViewController(
                recognizedDataTypes: [.barcode(symbologies: [.qr])],
                qualityLevel: .balanced,
                isHighlightingEnabled: true
            )
            scanner.delegate = context.coordinator
            try? scanner.startScanning()
            return scanner
        }

        func updateUIViewController(_ scanner: DataScannerViewController, context: Context) {}

        static func dismantleUIViewController(_ scanner: DataScannerViewController, coordinator: Coordinator) {
            scanner.stopScanning()
        }

        func makeCoordinator() -> Coordinator { Coordinator(found: found) }

        @MainActor
        final class Coordinator: NSObject, DataScannerViewControllerDelegate {
            private let found: (String) -> Void
            private var handedOver = false

            init(found: @escaping (String) -> Void) {
                self.found = found
            }

            func dataScanner(
                _ dataScanner: DataScannerViewController, didAdd addedItems: [RecognizedItem],
                allItems: [RecognizedItem]
            ) {
                guard !handedOver else { return }
                for item in addedItems {
                    if case .barcode(let code) = item, let text = code.payloadStringValue {
                        handedOver = true
                        dataScanner.stopScanning()
                        found(text)
                        return
                    }
                }
            }
        }
    }
#endif
