import PBCore
import PBRetrieval

Tool.main(SearchCommand.spec) { try SearchCommand.run($0) }
