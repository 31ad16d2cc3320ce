import PBCore
import PBRetrieval

Tool.main(RerankCommand.spec) { try RerankCommand.run($0) }
